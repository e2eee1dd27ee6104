# The budget rule (R/budget.R): the candidates it chooses among, the points
# it tells apart, its choice when the policy's point does not fit, and the
# time it records.

# The first n distinct rows of V by pairwise comparison (the brute-force
# reference of the candidates' deduplication).
ref_first_distinct <- function(V, n) {
  keep <- integer()
  for (i in seq_len(nrow(V))) {
    if (length(keep) == n) break
    if (!ref_in_rows(V[i, , drop = FALSE], V[keep, , drop = FALSE])) {
      keep <- c(keep, i)
    }
  }
  V[keep, , drop = FALSE]
}

# Is each row of X equal to a row of S, coordinate by coordinate?
ref_in_rows <- function(X, S) {
  vapply(seq_len(nrow(X)), function(i) {
    any(colSums(t(S) == X[i, ]) == ncol(X))
  }, NA)
}

# The state of a run stopped after its first evaluations, ready for the
# budget rule "feasible" (the loop's own state, models fitted by a
# proposal), and that proposal.
rule_state <- function(prob, policy, n, seed) {
  run <- bo_optimize(prob, policy, max_evaluations = n, seed = seed,
                     progress = FALSE, budget_rule = "stop")
  st <- unclass(run)
  st$stop_reason <- NULL
  st$stop_code <- NULL
  st$budget_rule <- "feasible"
  p <- costbo:::state_propose(st)
  list(state = p$state, p = p)
}

# The candidate rows the rule hands the policy's acquisition.
rule_candidates <- function(st, p, remaining) {
  seen <- new.env()
  st$policy$acquisition <- function(state, X) {
    seen$X <- X
    rep(0, nrow(X))
  }
  costbo:::budget_feasible_proposal(st, p, remaining)
  seen$X
}

test_that("a typed space's candidates are its first distinct typed points", {
  spaces <- list(
    # 15 typed points: the first n rows repeat some, all 15 are found
    discrete = bo_space(a = param_int(1, 5), b = param_cat(c("x", "y", "z"))),
    # integers on a log scale and a number: almost every point distinct
    mixed = bo_space(n = param_int(1, 64, log = TRUE),
                     r = param_num(0.1, 1, log = TRUE),
                     k = param_cat(c("u", "v"))))
  for (nm in names(spaces)) {
    sp <- spaces[[nm]]
    prob <- bo_problem(function(p) 1, space = sp, cost = 1, budget = 10)
    for (n in c(4L, 12L, 40L)) {
      set.seed(n)
      X <- costbo:::problem_candidates(prob, n)
      set.seed(n)
      U <- sobol_points(64L * n, sp$d)
      ref <- ref_first_distinct(costbo:::space_transform(sp, U), n)
      expect_identical(X, ref, label = sprintf("%s, n = %d", nm, n))
    }
  }
  # the discrete space has 15 points: all of them, in their first order
  set.seed(40)
  expect_identical(nrow(costbo:::problem_candidates(
    bo_problem(function(p) 1, space = spaces$discrete, cost = 1,
               budget = 10), 40L)), 15L)
  # the initial design is the same set (its first n)
  prob <- bo_problem(function(p) 1, space = spaces$mixed, cost = 1,
                     budget = 10)
  set.seed(3)
  d <- costbo:::problem_design(prob, 7L)
  set.seed(3)
  U <- sobol_points(64L * 7L, spaces$mixed$d)
  expect_identical(d$x, ref_first_distinct(
    costbo:::space_transform(spaces$mixed, U), 7L))
})

test_that("row ids and rows_in() tell rows apart as a pairwise comparison does", {
  set.seed(1)
  X <- matrix(sample(c(0, 0.25, 1 / 3, 1), 400, replace = TRUE), 100)
  X[7, ] <- -0 * X[7, ] # a negative zero equals zero
  ids <- costbo:::row_ids(X)
  ref <- vapply(seq_len(nrow(X)), function(i) {
    which(vapply(seq_len(nrow(X)), function(k) all(X[k, ] == X[i, ]), NA))[1]
  }, 1L)
  expect_identical(ids, ref)
  expect_identical(duplicated(ids), as.vector(duplicated(X)))
  # the rows of X found among evaluated points Y, against a pairwise scan
  Y <- rbind(X[c(3, 50, 7), ], matrix(runif(20), 5), 0 * X[7, ])
  Y[2, 4] <- Y[2, 4] + 1e-15 # (no longer equal to X[50, ])
  ref <- vapply(seq_len(nrow(X)), function(i) {
    any(vapply(seq_len(nrow(Y)), function(k) all(Y[k, ] == X[i, ]), NA))
  }, NA)
  expect_identical(costbo:::rows_in(X, Y), ref)
  expect_true(sum(ref) >= 2L)
  expect_identical(costbo:::rows_in(X, Y[0, , drop = FALSE]),
                   rep(FALSE, nrow(X)))
  expect_identical(costbo:::rows_in(X[0, , drop = FALSE], Y), logical())
})

test_that("the candidates handed to the policy leave out evaluated points and those that do not fit", {
  # a finite domain with a repeated candidate, a known cost
  set.seed(2)
  cand <- matrix(round(runif(120), 3), 60)
  cand[41, ] <- cand[5, ]
  cost <- function(x) 1 + 4 * x[1]
  prob <- bo_problem(function(x) sin(5 * x[1]) + x[2], candidates = cand,
                     cost = cost, budget = 1e3)
  r <- rule_state(prob, policy_ei(), 4L, seed = 3)
  st <- r$state
  remaining <- 3
  X <- rule_candidates(st, r$p, remaining)
  ref <- cand[!ref_in_rows(cand, st$X), , drop = FALSE]
  ref <- ref[apply(ref, 1L, cost) <= remaining, , drop = FALSE]
  expect_identical(X, ref)
  expect_lt(nrow(X), nrow(cand) - nrow(st$X))

  # a typed space with a known cost of the typed point
  sp <- bo_space(a = param_int(1, 6), b = param_cat(c("x", "y")),
                 r = param_num(0, 1))
  tcost <- function(p) p$a + (p$b == "y")
  tprob <- bo_problem(function(p) p$a * p$r - (p$b == "x"), space = sp,
                      cost = tcost, budget = 1e3)
  r <- rule_state(tprob, policy_ei(), 3L, seed = 4)
  st <- r$state
  set.seed(5)
  X <- rule_candidates(st, r$p, 4)
  n <- costbo:::budget_candidate_count(tprob, TRUE)
  set.seed(5)
  all <- ref_first_distinct(
    costbo:::space_transform(sp, sobol_points(64L * n, sp$d)), n)
  ref <- all[!ref_in_rows(all, st$X), , drop = FALSE]
  fits <- vapply(seq_len(nrow(ref)), function(i) {
    tcost(space_decode(sp, ref[i, ]))
  }, 0) <= 4
  expect_identical(X, ref[fits, , drop = FALSE])
  # the known costs of all candidates at once are those of each point
  expect_identical(costbo:::problem_known_costs(tprob, all),
                   vapply(seq_len(nrow(all)), function(i) {
                     tprob$cost(all[i, ])
                   }, 0))
})

test_that("when the proposal does not fit, the rule takes the best candidate that does", {
  # a known cost the policy ignores (EI), its proposal dearer than what is
  # left; the choice is the argmax of EI over the candidates that fit:
  # scrambled Sobol points of the box and its corners, not evaluated
  lo <- c(-1, 2)
  up <- c(3, 4)
  cost <- function(x) 1 + (x[1] - lo[1])
  prob <- bo_problem(function(x) -sum((x - c(2, 3))^2), lo, up, cost = cost,
                     budget = 1e3)
  r <- rule_state(prob, policy_ei(), 5L, seed = 6)
  st <- r$state
  p <- r$p
  cp <- cost(p$x)
  expect_gt(cp, 1.5)
  remaining <- (1 + cp) / 2
  set.seed(7)
  pc <- list(cost = cp, message = "")
  alt <- costbo:::budget_apply_rule(st, p, remaining, pc)
  expect_false(alt$none)
  expect_true(alt$p$info$budget_feasible)
  n <- costbo:::budget_candidate_count(prob, TRUE)
  set.seed(7)
  U <- sobol_points(n, 2L)
  X <- rbind(t(t(U) * (up - lo) + lo), lo, up, deparse.level = 0L)
  X <- X[!ref_in_rows(X, st$X), , drop = FALSE]
  X <- X[apply(X, 1L, cost) <= remaining, , drop = FALSE]
  # EI in closed form from the posterior, the incumbent the best value
  pr <- predict(st$models$f, X)
  best <- max(st$value)
  u <- (pr$mean - best) / pr$sd
  ei <- pr$sd * (u * pnorm(u) + dnorm(u))
  k <- which.max(ei)
  expect_identical(alt$p$x, X[k, ])
  expect_equal(alt$p$info$acquisition, ei[k], tolerance = 1e-8)
  expect_lte(cost(alt$p$x), remaining)
  # the step engine acts on it, and records how long the rule took
  d <- costbo:::step_decide(st, p, committed = st$budget - st$spent -
                              remaining)
  expect_identical(d$action, "evaluate")
  expect_true(is.numeric(d$p$rule_time) && d$p$rule_time >= 0)
  # nothing fits: the run ends
  set.seed(7)
  none <- costbo:::budget_apply_rule(st, p, 0.5, pc)
  expect_true(none$none)
})

test_that("runs and sessions record the budget rule's time", {
  prob <- known_cost_problem(budget = 40)
  run <- bo_optimize(prob, policy_ei_pu(), seed = 1, progress = FALSE)
  df <- as.data.frame(run)
  expect_true("rule_time" %in% names(df))
  expect_identical(which(names(df) == "rule_time"),
                   which(names(df) == "policy_time") + 1L)
  bo <- df$phase == "bo"
  expect_true(all(is.na(df$rule_time[!bo])))
  expect_true(all(is.finite(df$rule_time[bo]) & df$rule_time[bo] >= 0))
  # the rule chose some of them (and took its time there)
  expect_gt(sum(df$budget_feasible %in% 1), 0L)
  # under "stop" the column is there too
  st <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE,
                    budget_rule = "stop", max_evaluations = 2)
  ds <- as.data.frame(st)
  expect_true(all(ds$rule_time[ds$phase == "bo"] >= 0))
  # a run saved before the rule's time was kept: NA, and the next records
  # keep their places
  old <- run
  old$rule_time <- NULL
  expect_identical(as.data.frame(old)$rule_time, rep(NA_real_, nrow(df)))
  st2 <- costbo:::state_record(unclass(old), costbo:::new_step(c(0, 0)), 1,
                               1, "bo", rule_time = 0.5)
  expect_identical(costbo:::state_rule_time(st2),
                   c(rep(NA_real_, nrow(df)), 0.5))
  # a session: the told point carries the time of bo_ask()'s rule
  init <- data.frame(x1 = c(-4, 0, 5, 9), x2 = c(1, 12, 7, 3))
  init$value <- apply(as.matrix(init), 1L, branin_max)
  s <- bo_session(prob, policy_ei(), initial = init, charge_initial = FALSE)
  x <- bo_ask(s)
  expect_true(is.numeric(attr(x, "rule_time")) && attr(x, "rule_time") >= 0)
  s <- bo_tell(s, x, value = branin_max(as.numeric(x)))
  dss <- as.data.frame(s)
  expect_identical(dss$rule_time[nrow(dss)], attr(x, "rule_time"))
  expect_true(all(is.na(dss$rule_time[-nrow(dss)])))
})
