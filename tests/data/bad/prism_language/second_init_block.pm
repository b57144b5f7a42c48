dtmc
module m
  x : [0..3];
  [] x=0 -> (x'=1);
endmodule
init x=0 endinit
init x=1 endinit
