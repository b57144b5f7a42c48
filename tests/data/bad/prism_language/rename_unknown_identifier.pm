dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
module m2 = m [ x=x2, zz=q ] endmodule
