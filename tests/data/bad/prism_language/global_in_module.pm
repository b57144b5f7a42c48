dtmc
module m
  x : [0..3] init 0;
  global y : [0..1];
  [] x=0 -> (x'=1);
endmodule
