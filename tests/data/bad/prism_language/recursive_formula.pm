formula f = g + 1;
formula g = f;
dtmc
module m
  x : [0..3] init 0;
  [] f>0 -> (x'=1);
endmodule
