const int N = mod(1, 0);
dtmc
module m
  x : [0..3] init 0;
  [] x<N -> (x'=1);
endmodule
