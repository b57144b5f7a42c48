dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
module n
  y : [0..1];
  [] y=0 -> (x'=2);
endmodule
