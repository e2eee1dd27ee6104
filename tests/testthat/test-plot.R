# Plots draw without error and return their argument invisibly.

test_that("run plots draw", {
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  on.exit({
    grDevices::dev.off()
    unlink(f)
  })
  run <- bo_optimize(measured_cost_problem(8), policy_ei_pu(), seed = 1,
                     progress = FALSE)
  expect_invisible(plot(run))
  prob <- bo_problem(function(x) list(value = sin(6 * x), cost = exp(x)),
                     lower = 0, upper = 1, budget = 4)
  run1 <- bo_optimize(prob, policy_ei_pu(), seed = 2, progress = FALSE)
  expect_invisible(plot(run1, type = "posterior"))
  known <- bo_problem(function(x) sin(6 * x), lower = 0, upper = 1,
                      cost = function(x) 1 + x, budget = 4)
  run2 <- bo_optimize(known, policy_pbgi(0.01), seed = 2, progress = FALSE)
  expect_invisible(plot(run2, type = "posterior"))
  expect_error(plot(run, type = "posterior"), class = "costbo_error_arg")
  expect_error(plot(run, type = "surface"), class = "costbo_error_arg")
})
