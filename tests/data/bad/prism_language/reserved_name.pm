dtmc
const int module = 1;
