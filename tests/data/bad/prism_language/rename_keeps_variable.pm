dtmc
module m
  x : [0..3] init 0;
  [a] x=0 -> (x'=1);
endmodule
module m2 = m [ a=b ] endmodule
