# Seeded fuzz of every exported function and S3 method (helper-fuzz.R):
# each malformed call returns or signals a costbo_error that names an
# argument of the function, with the user's call; never an R-internal error.

test_that("malformed calls give costbo errors naming an argument", {
  skip_on_cran()
  res <- fuzz_run(seed = 16L)
  expect_gte(nrow(res), 1000L)
  # every exported function is fuzzed
  exported <- setdiff(getNamespaceExports("costbo"),
                      c("costbo_build", "test_problems", "policy_ei",
                        "policy_ei_pu", "policy_ei_pu_cc", "policy_q1",
                        "policy_random"))  # no arguments
  expect_setequal(intersect(unique(res$fun), exported), exported)
  bad <- res[!res$outcome %in% c("returned", "costbo_named"), ]
  expect_identical(
    sprintf("%s(%s = %s): %s: %s", bad$fun, bad$arg, bad$value, bad$outcome,
            bad$message),
    character(0))
  # nearly all errors blame the argument that was made malformed
  err <- res[res$outcome == "costbo_named", ]
  expect_gt(mean(err$names_arg), 0.95)
})
