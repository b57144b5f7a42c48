const int N;
const double p;
const int K = 2;
dtmc
module m
  x : [0..3] init 0;
  [] x<N -> p : (x'=1) + 1-p : true;
endmodule
