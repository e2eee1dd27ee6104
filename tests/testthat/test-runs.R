# c() of runs.

test_that("c() of runs is a bo_runs that prints and stacks them", {
  prob <- test_problem("branin", budget = 5)
  a <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
  b <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
  runs <- c(EI = a, `EI-PU` = b)
  expect_s3_class(runs, "bo_runs")
  expect_identical(names(runs), c("EI", "EI-PU"))
  expect_identical(runs$EI$X, a$X)
  # runs and lists of runs combine, unnamed ones by position
  more <- c(runs, a)
  expect_length(more, 3L)
  expect_identical(names(more), c("EI", "EI-PU", ""))
  expect_identical(names(c(a, b)), NULL)
  # one line per run, with its numbers
  out <- capture.output(print(runs))
  expect_identical(out[1], "2 runs")
  expect_match(out[2], sprintf("EI: .*, %d evaluations, spent", length(a$value)))
  expect_match(out[3], format(signif(summary(b)$best_value, 6)), fixed = TRUE)
  # the records stacked, each as the run's own data frame
  df <- as.data.frame(runs)
  expect_identical(df$run, rep(c("EI", "EI-PU"), c(length(a$value),
                                                   length(b$value))))
  da <- as.data.frame(a)
  expect_identical(df$value[df$run == "EI"], da$value)
  expect_identical(df$x1[df$run == "EI-PU"], as.data.frame(b)$x1)
  expect_identical(as.data.frame(c(a, b))$run[1], "1")
  expect_error(c(a, 1), class = "costbo_error_arg")
})
