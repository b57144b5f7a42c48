dtmc
module m
  x : [0..3] init 0;
  y : [0..2.5];
  [] x=0 -> (x'=1);
endmodule
