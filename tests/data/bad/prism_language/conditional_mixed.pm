dtmc
module m
  x : [0..3] init 0;
  [] (x=0 ? true : 1) -> (x'=1);
endmodule
