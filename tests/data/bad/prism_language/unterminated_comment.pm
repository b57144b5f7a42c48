dtmc
/* open
module m endmodule
