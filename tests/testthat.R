library(testthat)
library(costbo)

test_check("costbo")
