// const N=3,p=0.25,b=true
dtmc
const int N;
const double p;
const bool b;
formula done = x=N;
module m
  x : [0..N] init 0;
  f : bool init b;
  [go] x<N -> p : (x'=x+1) + 1-p : (x'=x)&(f'=!f);
  [] done -> true;
endmodule
label "goal" = done & f;
rewards "steps" [go] true : 1; x=N : 2; endrewards
