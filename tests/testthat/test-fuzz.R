# Seeded fuzz of every exported function and the S3 methods that take
# arguments besides their object (helper-fuzz.R):
# each malformed call returns or signals a costbo_error that names an
# argument of the function, with the user's call; never an R-internal error.
# The calls are classified as bench/fuzz-report.R counts them
# (fuzz_category()); the unclear and silently-wrong categories are empty,
# but for cases listed with the reason they are right (fuzz_right). This
# file runs the whole fuzz (about 11 000 calls, 15-20 s of CPU): its
# coverage is the point.

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
  # every error names the argument that was made malformed (a mismatch of
  # a pair names both members), and nothing returned fails its check or
  # takes a non-finite value it should refuse, but for the cases listed
  # with their reasons
  unclear <- res[res$category %in% c("crash", "hang", "internal", "unnamed",
                                     "wrong call", "wrong argument",
                                     "silently wrong"), ]
  reason <- mapply(fuzz_right_reason, unclear$fun, unclear$arg,
                   unclear$value, unclear$category)
  expect_identical(
    sprintf("%s(%s = %s): %s: %s", unclear$fun, unclear$arg, unclear$value,
            unclear$category, ifelse(nzchar(unclear$check), unclear$check,
                                     unclear$message))[!nzchar(reason)],
    character(0))
  # the extremes of the double range are fuzzed, and each is refused or
  # gives a result that passes its check
  ext <- res[res$value %in% c("1.797e308", "-1.797e308", "5e-324",
                              "1e-300"), ]
  expect_gte(nrow(ext), 1000L)
  expect_true(all(ext$category %in% c("clean", "fine")))
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
