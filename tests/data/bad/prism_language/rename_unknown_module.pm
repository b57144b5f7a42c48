dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
module m2 = m9 [ x=x2 ] endmodule
