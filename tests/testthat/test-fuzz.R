# Seeded fuzz of every exported function and the S3 methods that take
# arguments besides their object (helper-fuzz.R):
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
  # a parameter or space changed after it was made is refused wherever a
  # parameter or a space is taken
  changed <- res[res$value %in% c("changed param", "changed space") &
                   res$fun %in% c("bo_space", "as_bo_space", "space_encode",
                                  "space_decode", "bo_problem"), ]
  expect_gte(nrow(changed), 10L)
  expect_identical(unique(changed$outcome), "costbo_named")
  # the methods' digits are checked
  digits <- res[res$arg == "digits", ]
  expect_gte(length(unique(digits$fun)), 7L)
  expect_false(any(digits$value %in% c("NA", "-1", "0", "0.5", "string") &
                     digits$outcome == "returned"))
})
