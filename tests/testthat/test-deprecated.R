# Renamed arguments: the old names work for one release, with a warning of
# class costbo_warning_deprecated, and give what the new names give.

expect_renamed <- function(old_call, new_call, old, new) {
  w <- NULL
  got <- withCallingHandlers(old_call(), costbo_warning_deprecated = function(c) {
    w <<- c
    invokeRestart("muffleWarning")
  })
  expect_false(is.null(w))
  expect_match(conditionMessage(w), sprintf("`%s` is deprecated: use `%s`",
                                            old, new), fixed = TRUE)
  expect_identical(got, new_call())
}

test_that("the renamed arguments of the test problems still work", {
  norm <- function(p) {
    # closures differ in their environments only
    p[vapply(p, is.function, NA)] <- NULL
    p
  }
  expect_renamed(function() norm(test_problem("ackley", d = 3, cost = "linear")),
                 function() norm(test_problem("ackley", d = 3,
                                              cost_family = "linear")),
                 "cost", "cost_family")
  set.seed(1)
  a <- suppressWarnings(test_problem("branin", noise = 0.5))$objective(c(1, 2))
  set.seed(1)
  b <- test_problem("branin", noise_sd = 0.5)$objective(c(1, 2))
  expect_identical(a, b)
  expect_renamed(function() norm(test_problem_cvs("hartmann3", costs = "cheap")),
                 function() norm(test_problem_cvs("hartmann3",
                                                  cost_set = "cheap")),
                 "costs", "cost_set")
  expect_renamed(function() test_problem_miso(costs = c(5, 1))$source_costs,
                 function() test_problem_miso(source_costs = c(5, 1))$source_costs,
                 "costs", "source_costs")
  expect_renamed(function() test_problem_cvs(noise = 0)$noisy,
                 function() test_problem_cvs(noise_sd = 0)$noisy,
                 "noise", "noise_sd")
})

test_that("the renamed arguments of runs and policies still work", {
  prob <- test_problem("branin", budget = 3)
  settings <- list(kernel = "se")
  strip <- function(run) as.data.frame(run)[c("x1", "x2", "value")]
  expect_renamed(function() strip(bo_optimize(prob, policy_ei(), seed = 1,
                                              model = settings,
                                              progress = FALSE)),
                 function() strip(bo_optimize(prob, policy_ei(), seed = 1,
                                              gp_args = settings,
                                              progress = FALSE)),
                 "model", "gp_args")
  init <- data.frame(x1 = c(0, 5, 9), x2 = c(1, 7, 13), value = c(-1, -3, -2))
  expect_renamed(function() bo_session(prob, policy_ei(), initial = init,
                                       model = settings)$model_args,
                 function() bo_session(prob, policy_ei(), initial = init,
                                       gp_args = settings)$model_args,
                 "model", "gp_args")
  expect_renamed(function() {
    bm <- bo_benchmark(list(b = prob), list(EI = policy_ei()), reps = 1,
                       model = settings, progress = FALSE)
    bm$replications$best_value
  }, function() {
    bm <- bo_benchmark(list(b = prob), list(EI = policy_ei()), reps = 1,
                       gp_args = settings, progress = FALSE)
    bm$replications$best_value
  }, "model", "gp_args")
  expect_renamed(function() policy_pbgi_d(0.2, beta = 0.3)$params,
                 function() policy_pbgi_d(0.2, decay = 0.3)$params,
                 "beta", "decay")
})

test_that("an old and a new name together are an error naming the old one", {
  prob <- test_problem("branin", budget = 3)
  e <- expect_error(bo_optimize(prob, policy_ei(), model = list(),
                                gp_args = list(), progress = FALSE),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "model")
  e <- expect_error(policy_pbgi_d(beta = 0.3, decay = 0.4),
                    class = "costbo_error_arg")
  expect_identical(e$arg, "beta")
  expect_error(test_problem("branin", cost = "linear", cost_family = "linear"),
               "left out when its new name `cost_family` is given",
               class = "costbo_error_arg")
})

test_that("policy_rollout() makes its policies with a warning naming the call to use", {
  skip_on_cran()
  w <- function(expr) {
    msg <- NULL
    pol <- withCallingHandlers(expr, costbo_warning_deprecated = function(c) {
      msg <<- conditionMessage(c)
      invokeRestart("muffleWarning")
    })
    list(policy = pol, message = msg)
  }
  a <- w(policy_rollout(2, n_samples = 8))
  expect_match(a$message, paste0("`policy_rollout()` is deprecated: use ",
                                 "`policy_cmdp_rollout(horizon = 2, ",
                                 "n_samples = 8, fantasy = \"observation\", ",
                                 "optimizer = \"compass\")`"),
               fixed = TRUE)
  b <- w(policy_rollout("adaptive", n_cand = 20,
                        control = list(error_const = 0.1)))
  expect_match(b$message, paste0(
    "use `policy_kg_rollout(horizon = \"adaptive\", n_cand = 20, ",
    "fantasy = \"observation\", control = list(error_const = 0.1))`"),
    fixed = TRUE)
  expect_warning(policy_rollout(3, base = "kg"), "policy_kg_rollout(horizon = 3",
                 fixed = TRUE, class = "costbo_warning_deprecated")
  expect_warning(policy_rollout(2, base = "ei"), "base = \"ei\"",
                 fixed = TRUE, class = "costbo_warning_deprecated")
  # the policies it made before, and the calls it names make the same runs
  expect_identical(a$policy$name, "rollout_eipu_then_ei")
  expect_identical(a$policy$label, "CMDP rollout (h = 2, 8 QMC samples)")
  expect_identical(b$policy$label,
                   "rolling-horizon rollout (KG, h <= 5, alpha = 0.9)")
  expect_identical(a$policy$params,
                   list(horizon = 2L, base = "eipu_then_ei", n_samples = 8L))
  prob <- test_problem("branin", budget = 2)
  strip <- function(run) as.data.frame(run)[c("x1", "x2", "value",
                                                "acquisition", "h")]
  run <- function(pol) {
    strip(bo_optimize(prob, pol, seed = 1, n_init = 4, progress = FALSE,
                      charge_initial = FALSE))
  }
  expect_identical(run(b$policy),
                   run(policy_kg_rollout(n_cand = 20, fantasy = "observation",
                                         control = list(error_const = 0.1))))
})
