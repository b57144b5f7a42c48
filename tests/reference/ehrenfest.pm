// A birth-death chain: Ehrenfest's urn with N balls in two halves, lazy.
// Each step picks one of the N balls at random and, with probability 1/2,
// moves it to the other half; n counts the balls in the left half. Its
// stationary distribution is binomial(N, 1/2).
// Written for pmc's self-contained reference set (tests/reference/README.md).
dtmc

const int N;

module urn
  n : [0..N] init 0;

  [] true -> (N-n)/(2*N) : (n'=min(n+1, N)) + n/(2*N) : (n'=max(n-1, 0)) + 1/2 : (n'=n);
endmodule

rewards "left"
  true : n;
endrewards

rewards "steps"
  true : 1;
endrewards

label "empty" = n=0;
label "full" = n=N;
label "half" = 2*n=N;
