dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
module m2 = m [ x=x2 ] endmodule
module m3 = m2 [ x2=x3 ] endmodule
