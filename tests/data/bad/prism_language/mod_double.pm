dtmc
module m
  x : [0..3] init 0;
  [] mod(x, 2.5)=0 -> (x'=1);
endmodule
