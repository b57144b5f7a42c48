const int A = A;
dtmc
module m
  x : [0..3] init 0;
  [] x<A -> (x'=1);
endmodule
