const int A = B + 1;
const int B = 2 * A;
dtmc
module m
  x : [0..3] init 0;
  [] x<A -> (x'=1);
endmodule
