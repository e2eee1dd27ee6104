# Interrupt latency of costbo's long computations (issue 16): each scenario
# runs in a child Rscript; once its setup is done, the parent waits
# `delay` seconds, sends SIGINT (tools::pskill) and measures the time until
# the child's interrupt handler runs. Target: below 0.5 s everywhere.
#   R_LIBS=<lib> Rscript bench/interrupt.R [delay] [scenario regex]
args <- commandArgs(TRUE)
delay <- if (length(args)) as.numeric(args[1L]) else 1.5
only <- if (length(args) > 1L) args[2L] else ""
scenarios <- list(
  predict_3e6_points = list(
    setup = "set.seed(1); x <- runif(300); fit <- gp_fit(x, sin(9 * x), lower = 0, upper = 1); xn <- runif(3e6)",
    run = "predict(fit, xn)"),
  gp_fit_n1200 = list(
    setup = "set.seed(1); X <- matrix(runif(2400), ncol = 2); y <- sin(9 * X[, 1]) + X[, 2]",
    run = "gp_fit(X, y, n_starts = 4)"),
  simulate_1000_points = list(
    setup = "set.seed(1); x <- runif(50); fit <- gp_fit(x, sin(9 * x), lower = 0, upper = 1); xn <- seq(0, 1, length.out = 1000)",
    run = "simulate(fit, nsim = 1e5, newdata = xn)"),
  simulate_fit1200_1000_points = list(
    setup = "set.seed(1); X <- matrix(runif(2400), ncol = 2); fit <- gp_fit(X, sin(9 * X[, 1]) + X[, 2], estimate = 'fixed', lengthscale = c(0.2, 0.3), outputscale = 1, noise = 1e-4, lower = 0, upper = 1); xn <- matrix(runif(2000), ncol = 2)",
    run = "simulate(fit, nsim = 1, newdata = xn)"),
  acq_maximize_1e6_raw = list(
    setup = "set.seed(1); X <- matrix(runif(600), ncol = 2); fit <- gp_fit(X, sin(9 * X[, 1]) + X[, 2], lower = 0, upper = 1)",
    run = "acq_maximize(fit, 'ei', n_raw = 1e6, n_starts = 50)"),
  expected_ucb_1e5_samples = list(
    setup = "set.seed(1); X <- matrix(runif(600), ncol = 3); fit <- gp_fit(X, sin(9 * X[, 1]) + X[, 2], lower = 0, upper = 1); Z <- matrix(runif(3e5), ncol = 3); xq <- matrix(runif(400), ncol = 2)",
    run = "acq_expected_ucb(fit, xq, controlled = c(1, 3), samples = Z, grad = TRUE)"),
  kg_1000_nodes = list(
    setup = "prob <- test_problem('branin', budget = 50)",
    run = "bo_optimize(prob, policy_kg(n_nodes = 1000, n_cand = 2000), seed = 1, progress = FALSE)"),
  rolling_horizon_h5 = list(
    setup = "prob <- test_problem('branin', budget = 50)",
    run = "bo_optimize(prob, policy_rollout('adaptive', max_horizon = 5, n_cand = 300, control = list(error_const = 0)), seed = 1, progress = FALSE)"),
  cmdp_rollout_h4 = list(
    setup = "prob <- test_problem('lee2021', budget = 50)",
    run = "bo_optimize(prob, policy_rollout(horizon = 4, n_samples = 4096), seed = 1, progress = FALSE)"),
  bmsei_tree = list(
    setup = "prob <- test_problem('branin', cost_family = 'cosine', budget = 50)",
    run = "bo_optimize(prob, policy_bmsei(steps = 4, fantasies = c(16, 16, 8)), seed = 1, progress = FALSE)"),
  ucb_cvs = list(
    setup = "prob <- test_problem_cvs('hartmann3', budget = 200)",
    run = "bo_optimize(prob, policy_ucb_cvs(n_samples = 1e5, n_raw = 2000), seed = 1, progress = FALSE)"),
  miso_kg = list(
    setup = "prob <- test_problem_miso('goldstein_price', budget = 400)",
    run = "bo_optimize(prob, policy_kg(n_nodes = 1000, n_cand = 2000), seed = 1, progress = FALSE)"),
  prior_sample_1e6_features = list(
    setup = "set.seed(1); f <- gp_prior_sample(2, n_features = 1e6); X <- matrix(runif(4e4), ncol = 2)",
    run = "f(X)"),
  sobol_1e7 = list(setup = "NULL", run = "sobol_points(1e7, 20)")
)
scenarios <- scenarios[grepl(only, names(scenarios))]
child <- tempfile(fileext = ".R")
writeLines(c(
  "a <- commandArgs(TRUE)",
  "suppressPackageStartupMessages(library(costbo))",
  "eval(parse(text = a[1]))",
  "writeLines('go', a[3])",
  "r <- tryCatch({ eval(parse(text = a[2]))",
  "  # bo_optimize() catches the interrupt itself and returns the run",
  "  writeLines(format(as.numeric(Sys.time()), digits = 17), a[4]); 'returned' },",
  "  interrupt = function(e) {",
  "    writeLines(format(as.numeric(Sys.time()), digits = 17), a[4]); 'interrupted' })"),
  child)
rscript <- file.path(R.home("bin"), "Rscript")
res <- data.frame(scenario = names(scenarios), latency_s = NA_real_,
                  outcome = NA_character_)
for (i in seq_along(scenarios)) {
  sc <- scenarios[[i]]
  go <- tempfile()
  got <- tempfile()
  p <- processx::process$new(rscript, c(child, sc$setup, sc$run, go, got),
                             stdout = NULL, stderr = "|")
  while (p$is_alive() && !file.exists(go)) Sys.sleep(0.01)
  Sys.sleep(delay)
  if (!p$is_alive()) {
    res$outcome[i] <- "finished before the signal"
    next
  }
  t0 <- as.numeric(Sys.time())
  tools::pskill(p$get_pid(), tools::SIGINT)
  deadline <- t0 + 120
  while (!file.exists(got) && as.numeric(Sys.time()) < deadline &&
         p$is_alive()) Sys.sleep(0.002)
  Sys.sleep(0.02)
  if (file.exists(got)) {
    res$latency_s[i] <- as.numeric(readLines(got)) - t0
    res$outcome[i] <- "interrupted"
  } else {
    res$outcome[i] <- if (p$is_alive()) "no response in 120 s" else
      "ended without the handler"
  }
  if (p$is_alive()) p$kill()
}
print(res, digits = 3)
cat(sprintf("largest latency %.3f s\n", max(res$latency_s, na.rm = TRUE)))
