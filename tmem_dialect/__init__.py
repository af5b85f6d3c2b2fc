"""tmem-dialect: an xDSL toolkit for Blackwell Tensor Memory and the PTX tcgen05 instructions."""
