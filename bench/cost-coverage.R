# Do the 90% intervals of measured costs hold their level? (issue 52)
#
# Paper 000's problems with measured costs (test_problem(name, seed = s):
# Dropwave, Alpine1, Shekel5 and Ackley with the cosine cost learned by a GP
# on the log cost), EI-PU-CC in an ask/tell session after the default
# 2(d + 1)-point design (not charged, budget_rule = "stop", so that every
# run is the same whatever the intervals), 30 steps; and a forest job
# when ranger is installed: a random forest (one thread) tuned over four
# settings on the Pima data, the cost the elapsed time of a 5-fold CV.
# For each proposal, whether the cost paid lies in its 90% interval:
#   before  the GP's own interval exp(m -/+ 1.645 s) (costbo before the
#           calibration),
#   loo     the GP's sd scaled by its leave-one-out residuals (Rasmussen and
#           Williams 2006, eq. 5.12; hyperparameters held fixed), Student-t
#           with 2 + n degrees of freedom (n costs seen): the calibration
#           that was tried first and not kept,
#   after   the interval costbo records (cost_lower, cost_upper of
#           as.data.frame(session): see R/cost-predict.R),
# over the first 5 predictions of each run (early) and the rest (late), and
# the mean log width log(upper / lower) of the intervals. The calibration's
# constants were chosen on seeds 1-5 of the four problems; the default
# seeds here, 6-10, were not looked at.
#   R_LIBS=<lib> nice -n 10 Rscript bench/cost-coverage.R [seeds]
# About a minute on two shared cores.

suppressPackageStartupMessages(library(costbo))
source("bench/common.R")
args <- commandArgs(trailingOnly = TRUE)
seeds <- if (length(args)) eval(parse(text = args[1L])) else 6:10
steps <- 30L
level_q <- qnorm(0.95)

# The leave-one-out calibration of a log-cost GP cm (from its Cholesky
# factor): scale factor and degrees of freedom.
loo_scale <- function(cm, nu0 = 2) {
  L <- cm$L
  n <- nrow(L)
  Li <- forwardsolve(L, diag(n))
  kii <- colSums(Li^2)
  alpha <- backsolve(L, cm$beta, upper.tri = FALSE, transpose = TRUE)
  z <- alpha / sqrt(kii)
  list(k = sqrt((nu0 + sum(z^2)) / (nu0 + n)), df = nu0 + n)
}

# One session of EI-PU-CC on problem pr: a data frame with one row per
# proposal with a modelled cost, its cost and the three intervals.
coverage_run <- function(pr, seed, label) {
  init <- bo_optimize(pr, policy_ei_pu_cc(), seed = seed,
                      charge_initial = FALSE, budget_rule = "stop",
                      max_evaluations = 0, progress = FALSE)
  df0 <- as.data.frame(init)
  if (is.null(pr$space)) {
    initial <- df0[, c(paste0("x", seq_len(pr$d)), "value", "cost")]
  } else {
    initial <- df0[, c(names(pr$space$params), "value", "cost")]
  }
  ses <- bo_session(pr, policy_ei_pu_cc(), initial = initial,
                    charge_initial = FALSE, budget_rule = "stop")
  set.seed(seed)
  rows <- list()
  for (k in seq_len(steps)) {
    if (is_finished(ses)) break
    pt <- bo_ask(ses)
    # (the user's objective: a typed point, the user's direction)
    f <- if (is.null(pr$user_objective)) pr$objective else pr$user_objective
    ev <- f(if (is.list(pt)) pt else as.double(pt))
    ses <- bo_tell(ses, pt, ev$value, ev$cost)
    cm <- attr(pt, "models")$cost
    if (is.null(cm)) next
    n <- length(ses$value)
    u <- matrix(ses$X[n, ], 1L)
    p <- predict(cm, u)
    noise <- cm$hyp[cm$d + 2L] * cm$ysd^2
    lo <- loo_scale(cm)
    half_loo <- qt(0.95, lo$df) * lo$k * sqrt(p$sd^2 + noise)
    rec <- as.data.frame(ses)[n, ]
    rows[[length(rows) + 1L]] <- data.frame(
      problem = label, seed = seed, cost = ev$cost,
      before_lower = exp(p$mean - level_q * p$sd),
      before_upper = exp(p$mean + level_q * p$sd),
      loo_lower = exp(p$mean - half_loo), loo_upper = exp(p$mean + half_loo),
      after_lower = rec$cost_lower, after_upper = rec$cost_upper)
  }
  out <- do.call(rbind, rows)
  out$early <- seq_len(nrow(out)) <= 5L
  out
}

# A random forest on the Pima data, 5-fold CV Brier score, the cost the
# elapsed seconds of the CV (one thread).
forest_problem <- function(seed) {
  data <- rbind(MASS::Pima.tr, MASS::Pima.te)
  fold <- with_fold_seed(seed, sample(rep_len(1:5, nrow(data))))
  space <- bo_space(num.trees = param_int(10, 1000, log = TRUE),
                    mtry = param_int(1, 7),
                    min.node.size = param_int(1, 64, log = TRUE),
                    sample.fraction = param_num(0.1, 1, log = TRUE))
  bo_problem(function(p) {
    t0 <- proc.time()[["elapsed"]]
    err <- 0
    for (f in 1:5) {
      fit <- ranger::ranger(type ~ ., data = data[fold != f, ],
                            num.trees = p$num.trees, mtry = p$mtry,
                            min.node.size = p$min.node.size,
                            sample.fraction = p$sample.fraction,
                            probability = TRUE, num.threads = 1L, seed = 1L)
      pr <- predict(fit, data[fold == f, ], num.threads = 1L)$predictions
      err <- err + sum((pr[, "Yes"] - (data$type[fold == f] == "Yes"))^2)
    }
    list(value = err / nrow(data),
         cost = max(proc.time()[["elapsed"]] - t0, 1e-3))
  }, space = space, budget = 600, maximize = FALSE, name = "ranger on Pima")
}
with_fold_seed <- function(seed, expr) {
  old <- .Random.seed
  on.exit(assign(".Random.seed", old, globalenv()))
  set.seed(1000L + seed)
  expr
}

cover <- function(lower, upper, cost) mean(cost >= lower & cost <= upper)
row_of <- function(label, d) {
  e <- d$early
  cv <- function(w, i) cover(d[[paste0(w, "_lower")]][i],
                             d[[paste0(w, "_upper")]][i], d$cost[i])
  lw <- function(w) mean(log(d[[paste0(w, "_upper")]] /
                               d[[paste0(w, "_lower")]]))
  data.frame(problem = label, runs = length(unique(d$seed)), n = nrow(d),
             before_early = cv("before", e), before_late = cv("before", !e),
             loo_early = cv("loo", e), loo_late = cv("loo", !e),
             after_early = cv("after", e), after_late = cv("after", !e),
             logw_before = lw("before"), logw_loo = lw("loo"),
             logw_after = lw("after"))
}

all_rows <- list()
tab <- list()
for (nm in c("dropwave", "alpine1", "shekel5", "ackley")) {
  d <- do.call(rbind, lapply(seeds, function(s) {
    coverage_run(test_problem(nm, seed = s), s, nm)
  }))
  all_rows[[nm]] <- d
  tab[[nm]] <- row_of(nm, d)
  message(sprintf("%s done", nm))
}
tab[["paper 000"]] <- row_of("paper 000 (all four)", do.call(rbind, all_rows))
forest_note <- NULL
if (requireNamespace("ranger", quietly = TRUE) &&
    requireNamespace("MASS", quietly = TRUE)) {
  fseeds <- seeds
  d <- do.call(rbind, lapply(fseeds, function(s) {
    coverage_run(forest_problem(s), s, "forest")
  }))
  tab[["forest"]] <- row_of("ranger on Pima (time)", d)
} else {
  forest_note <- "forest job skipped: ranger (and MASS) not installed"
}
tab <- do.call(rbind, tab)
num <- vapply(tab, is.double, NA)
tab[num] <- lapply(tab[num], round, 3)
out <- c(
  "# bench/cost-coverage.R: coverage of the 90% intervals of measured costs,",
  sprintf("# EI-PU-CC sessions, %d steps after the design, seeds %s (forest: %s)",
          steps, paste(range(seeds), collapse = "-"),
          paste(range(seeds), collapse = "-")),
  paste("#", bench_header()),
  "# columns: share of costs paid inside the interval, early = first 5",
  "# predictions of a run, late = the rest; logw = mean log(upper / lower)",
  utils::capture.output(print(tab, row.names = FALSE)),
  forest_note)
writeLines(out)
writeLines(out, "bench/results-cost-coverage.txt")
