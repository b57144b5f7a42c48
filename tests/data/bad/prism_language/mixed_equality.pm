dtmc
module m
  x : [0..3] init 0;
  [] x=true -> (x'=1);
endmodule
