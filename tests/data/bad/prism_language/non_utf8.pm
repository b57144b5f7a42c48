dtmc
module m
  x√( : [0..3];
endmodule
