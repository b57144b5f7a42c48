dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (z'=1);
endmodule
