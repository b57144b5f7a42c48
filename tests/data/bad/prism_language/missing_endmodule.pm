dtmc
module m
  x : [0..3];
  [] x=0 -> (x'=1);
