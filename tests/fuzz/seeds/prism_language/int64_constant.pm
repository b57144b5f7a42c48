const int N = 2147483647 * 2147483647 * 2;
dtmc
module m
  x : [0..3] init 0;
  [] x<N -> (x'=1);
endmodule
