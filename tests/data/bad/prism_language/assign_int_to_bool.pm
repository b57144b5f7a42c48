dtmc
module m
  x : [0..3] init 0;
  b : bool;
  [] x=0 -> (b'=1);
endmodule
