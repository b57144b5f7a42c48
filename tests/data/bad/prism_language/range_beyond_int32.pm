const int B = 2147483647;
dtmc
module m
  x : [0..3] init 0;
  y : [0..B+1];
  [] x=0 -> (x'=1);
endmodule
