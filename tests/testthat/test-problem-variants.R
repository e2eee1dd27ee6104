# Problem variants as classes: what each variant answers to the loop.

variant_problems <- function() {
  set.seed(41)
  cand <- matrix(runif(20), 10)
  K <- exp(-as.matrix(dist(cand))^2 / 0.18) + diag(1e-8, 10)
  f <- function(x) sin(3 * x[1]) + x[2]
  list(
    box = bo_problem(f, lower = c(0, 0), upper = c(1, 1),
                     cost = function(x) 1 + x[1], budget = 3),
    finite = bo_problem(f, candidates = cand,
                        prior = list(mean = rep(0, 10), cov = K),
                        cost = function(x) 1 + x[1], budget = 3),
    # budgets that the steps' costs (0.1, 0.2 or 1 with control sets, 1000
    # or 1 with sources) cannot spend exactly
    cvs = test_problem_cvs("hartmann3", cost_set = "moderate", budget = 3.05),
    miso = test_problem_miso("rosenbrock", budget = 3.5))
}

test_that("each variant has its class and keeps the class bo_problem", {
  p <- variant_problems()
  expect_identical(class(p$box), c("bo_problem_box", "bo_problem"))
  expect_identical(class(p$finite), c("bo_problem_finite", "bo_problem"))
  expect_identical(class(p$cvs), c("bo_problem_cvs", "bo_problem"))
  expect_identical(class(p$miso), c("bo_problem_miso", "bo_problem"))
  # a problem saved when problems had the class "bo_problem" alone
  for (k in names(p)) {
    old <- structure(unclass(p[[k]]), class = "bo_problem")
    expect_identical(costbo:::upgrade_problem(old), p[[k]])
  }
})

test_that("each variant prices a step as its cost says", {
  p <- variant_problems()
  step <- costbo:::new_step
  expect_identical(costbo:::problem_price(p$box, step(c(0.25, 0.5))),
                   list(cost = 1.25, message = ""))
  expect_identical(costbo:::problem_price(p$finite,
                                          step(p$finite$candidates[3, ],
                                               index = 3))$cost,
                   1 + p$finite$candidates[3, 1])
  for (i in seq_along(p$cvs$control_sets)) {
    expect_identical(costbo:::problem_price(p$cvs, step(0.5, control_set = i))$cost,
                     p$cvs$control_costs[i])
  }
  # the initial (full) queries of control sets cost the largest set cost
  expect_identical(costbo:::problem_price(p$cvs, step(rep(0.5, 3)))$cost,
                   max(p$cvs$control_costs))
  x <- c(0.1, -0.3)
  for (s in 0:2) {
    expect_identical(costbo:::problem_price(p$miso, step(x, source = s))$cost,
                     p$miso$source_cost(x, s))
  }
  # a cost function that fails gives a message, not an error
  bad <- bo_problem(function(x) x, lower = 0, upper = 1,
                    cost = function(x) stop("no price"), budget = 1)
  pc <- costbo:::problem_price(bad, step(0.5))
  expect_true(is.na(pc$cost))
  expect_match(pc$message, "the cost function failed: no price")
  # a measured cost is not known in advance
  m <- bo_problem(function(x) list(value = x, cost = 1), lower = 0, upper = 1,
                  budget = 1)
  expect_identical(costbo:::problem_price(m, step(0.5)),
                   list(cost = NA_real_, message = ""))
})

test_that("runs decline the step that does not fit, in each variant's words", {
  p <- variant_problems()
  pols <- list(box = policy_ei_pu(), finite = policy_ei_pu(),
               cvs = policy_ucb_psq(n_samples = 32, n_raw = 10, n_starts = 1),
               miso = policy_kg(n_nodes = 3, n_cand = 10))
  # the rule "stop" with a free design: the run ends at the policy's first
  # step that does not fit, which it records as declined
  for (k in names(p)) {
    run <- bo_optimize(p[[k]], pols[[k]], n_init = 3, seed = 2,
                       charge_initial = FALSE, budget_rule = "stop",
                       progress = FALSE)
    expect_identical(run$stop_code, "budget", label = k)
    dec <- run$declined
    # the declined step did not fit: spent + its price > budget
    expect_gt(run$spent + dec$cost, run$budget)
    expect_true(run$spent <= run$budget * (1 + 1e-12))
    if (k == "cvs") {
      expect_identical(run$stop_reason,
                       "budget spent: the chosen control set would not fit")
      expect_identical(dec$cost, p$cvs$control_costs[dec$control_set])
    } else {
      expect_identical(run$stop_reason,
                       "budget spent: the next point would not fit")
    }
    if (k == "miso") {
      expect_identical(dec$cost, p$miso$source_cost(dec$x, dec$source))
    }
    if (k %in% c("box", "finite")) expect_identical(dec$cost, 1 + dec$x[1])
  }
  # the defaults (a charged design, the rule "feasible"): every evaluation
  # is paid, the design's too, and a known cost never overruns the budget
  for (k in c("box", "finite")) {
    run <- bo_optimize(p[[k]], pols[[k]], n_init = 3, seed = 2,
                       progress = FALSE)
    df <- as.data.frame(run)
    expect_identical(run$stop_code, "budget", label = k)
    expect_equal(df$cost, 1 + df$x1, tolerance = 1e-15)
    expect_equal(df$cumulative_cost, cumsum(df$cost), tolerance = 1e-12)
    expect_equal(run$spent, sum(df$cost), tolerance = 1e-12)
    expect_lte(run$spent, run$budget)
  }
  # the box's design (costs 1.86, then 1.24) cannot pay for its second
  # point, and one point is too few for a model: nothing more is started
  box <- bo_optimize(p$box, pols$box, n_init = 3, seed = 2, progress = FALSE)
  expect_identical(nrow(as.data.frame(box)), 1L)
  expect_match(box$stop_reason,
               "the next point of the initial design would not fit")
  # the finite domain's design ends once its prior has a point; then the
  # run ends when no candidate left fits in what remains
  fin <- bo_optimize(p$finite, pols$finite, n_init = 3, seed = 2,
                     progress = FALSE)
  df <- as.data.frame(fin)
  expect_identical(df$phase, c("initial", "bo"))
  left <- setdiff(seq_len(nrow(p$finite$candidates)), fin$index)
  remaining <- fin$budget - fin$spent
  expect_gt(min(1 + p$finite$candidates[left, 1]), remaining)
  expect_match(fin$stop_reason,
               "budget spent: no point fits in the remaining budget",
               fixed = TRUE)
  expect_gt(fin$declined$cost, remaining)
})

test_that("a finite domain keeps each evaluation's candidate index", {
  p <- variant_problems()$finite
  # free designs, so that the budget of 3 pays for optimization steps
  run <- bo_optimize(p, policy_ei(), n_init = 3, seed = 4,
                     charge_initial = FALSE, progress = FALSE)
  # the index of each evaluated point, found by direct comparison
  direct <- apply(run$X, 1L, function(x) {
    which(apply(p$candidates, 1L, function(r) all(r == x)))[1L]
  })
  expect_identical(run$index, as.integer(direct))
  # the objective's model is conditioned on those indices
  st <- costbo:::state_fit(run)
  expect_identical(as.integer(st$models$f$Xs[, 1]) + 1L, run$index)
  # a session saved before states kept indices gets them where it enters
  s <- bo_session(p, policy_ei(), initial = data.frame(
    x1 = p$candidates[c(2, 5, 7), 1], x2 = p$candidates[c(2, 5, 7), 2],
    value = c(0.1, 0.5, 0.2)), charge_initial = FALSE)
  expect_identical(s$index, c(2L, 5L, 7L))
  old <- s
  old$index <- integer()
  old$problem <- structure(unclass(old$problem), class = "bo_problem")
  set.seed(3)
  a <- bo_ask(s)
  set.seed(3)
  b <- bo_ask(old)
  expect_identical(as.double(a), as.double(b))
  s2 <- bo_tell(old, b, value = 0.3)
  expect_identical(s2$index, c(2L, 5L, 7L,
                               costbo:::match_candidates(p$candidates,
                                                         matrix(b, 1L))))
})

test_that("candidates are matched to within 1e-10 of their spread", {
  cand <- rbind(c(0, 10), c(1, 20), c(0.5, 15), c(1, 20))
  m <- costbo:::match_candidates
  expect_identical(m(cand, cand), c(1L, 2L, 3L, 2L))
  # within the tolerance: 1e-10 of the spread (1 and 10)
  expect_identical(m(cand, rbind(c(0.5 + 5e-11, 15 - 5e-10))), 3L)
  expect_error(m(cand, rbind(c(0.5 + 5e-10, 15))), "not one of the candidates",
               class = "costbo_error")
  expect_error(m(cand, rbind(c(0.5, 15 + 5e-9))), class = "costbo_error")
  # a constant coordinate: tolerance relative to its size
  flat <- cbind(c(0, 1, 2), 1000)
  expect_identical(m(flat, rbind(c(1, 1000 + 1e-8))), 2L)
})

test_that("a policy that does not suit the variant is refused before paying", {
  p <- variant_problems()
  paid <- 0
  counted <- function(prob) {
    f <- prob$objective
    prob$objective <- function(...) {
      paid <<- paid + 1
      f(...)
    }
    prob
  }
  cvs_pol <- policy_ucb_psq(n_samples = 32, n_raw = 10, n_starts = 1)
  expect_error(bo_optimize(counted(p$box), cvs_pol, n_init = 3,
                           progress = FALSE),
               "without control sets", class = "costbo_error_arg")
  expect_error(bo_optimize(counted(p$cvs), policy_ei(), n_init = 3,
                           progress = FALSE),
               "a policy for control sets", class = "costbo_error_arg")
  expect_error(bo_optimize(counted(p$miso), policy_ei(), n_init = 3,
                           progress = FALSE),
               "several information sources", class = "costbo_error_arg")
  expect_identical(paid, 0)
})

test_that("a problem tells a policy where to search", {
  search <- costbo:::problem_search
  box <- bo_problem(function(x) -sum(x^2), lower = c(-1, 0), upper = c(1, 2),
                    budget = 5)
  expect_identical(search(box), list(kind = "box", lower = c(-1, 0),
                                     upper = c(1, 2)))
  cand <- as.matrix(expand.grid(seq(0, 1, length.out = 4), c(0, 1)))
  f <- function(x) sin(3 * x[1]) + x[2]
  rows <- bo_problem(f, candidates = cand, cost = function(x) 1 + x[1],
                     budget = 8)
  expect_identical(search(rows), list(kind = "rows", rows = cand))
  K <- exp(-as.matrix(stats::dist(cand))^2 / 0.5) + diag(1e-8, 8L)
  prior <- bo_problem(f, candidates = cand, cost = function(x) 1 + x[1],
                      budget = 8, prior = list(mean = rep(0, 8L), cov = K),
                      noise = 1e-6)
  expect_identical(search(prior), list(kind = "indices", n = 8L))
  # the myopic policies and random search propose what the answer says:
  # a row of the candidates, or an index under the prior
  for (pol in list(policy_ei(), policy_random())) {
    for (pr in list(rows, prior)) {
      run <- bo_optimize(pr, pol, n_init = 2, seed = 1, progress = FALSE)
      df <- as.data.frame(run)
      expect_gt(sum(df$phase == "bo"), 0L)
      X <- as.matrix(df[, c("x1", "x2")])
      expect_true(all(costbo:::match_candidates(cand, X) %in% 1:8))
    }
  }
})

test_that("a policy declares where it can search and a problem it cannot search is refused before paying", {
  cand <- as.matrix(expand.grid(seq(0, 1, length.out = 4), c(0, 1)))
  calls <- 0L
  f <- function(x) {
    calls <<- calls + 1L
    sin(3 * x[1]) + x[2]
  }
  rows <- bo_problem(f, candidates = cand, cost = 1, budget = 8)
  K <- exp(-as.matrix(stats::dist(cand))^2 / 0.5) + diag(1e-8, 8L)
  prior <- bo_problem(f, candidates = cand, cost = 1, budget = 8,
                      prior = list(mean = rep(0, 8L), cov = K), noise = 1e-6)
  expect_identical(policy_bmsei()$domains, c("box", "indices"))
  expect_identical(policy_cmdp_rollout(2)$domains, "box")
  expect_identical(policy_kg()$domains, c("box", "pairs"))
  expect_identical(policy_kg_rollout(2)$domains, c("box", "pairs"))
  for (pol in list(policy_bmsei(), policy_cmdp_rollout(2), policy_kg())) {
    e <- tryCatch(bo_optimize(rows, pol, n_init = 2, progress = FALSE),
                  costbo_error_arg = function(e) e)
    expect_identical(e$arg, "policy")
    expect_match(conditionMessage(e), "candidate points without a prior")
  }
  e <- tryCatch(bo_session(prior, policy_cmdp_rollout(2)),
                costbo_error_arg = function(e) e)
  expect_match(conditionMessage(e), "with an explicit prior")
  expect_identical(calls, 0L)
  # B-MS-EI under an explicit prior: exact over the candidates
  run <- bo_optimize(prior, policy_bmsei(steps = 2, fantasies = 2),
                     n_init = 2, seed = 1, max_evaluations = 1,
                     progress = FALSE)
  expect_identical(sum(as.data.frame(run)$phase == "bo"), 1L)
})

test_that("a problem with information sources answers pairs, and only the policies for pairs search it", {
  pr <- test_problem_miso("rosenbrock", budget = 40, seed = 2)
  w <- costbo:::problem_search(pr)
  expect_identical(w$kind, "pairs")
  expect_identical(w$sources, pr$n_sources)
  expect_identical(w[c("lower", "upper")], list(lower = pr$lower,
                                                upper = pr$upper))
  e <- tryCatch(bo_session(pr, policy_ei()), costbo_error_arg = function(e) e)
  expect_identical(e$arg, "policy")
  expect_s3_class(bo_session(pr, policy_kg(n_nodes = 4, n_cand = 20)),
                  "bo_session")
})

test_that("only the problem classes read a problem's candidates, prior or variant", {
  ns <- asNamespace("costbo")
  readers <- Filter(function(nm) {
    f <- get(nm, envir = ns)
    is.function(f) &&
      grepl("\\$candidates|\\$prior\\b|is_miso\\(|is_cvs\\(",
            paste(deparse(f), collapse = "\n"))
  }, ls(ns, all.names = TRUE))
  # the problems' questions and their methods, the constructor, print()
  # and the step of a policy's proposal, checked against the domain
  others <- setdiff(readers[!startsWith(readers, "problem_")],
                    c("new_bo_problem", "print.bo_problem", "proposal_step"))
  expect_identical(others, character())
})

test_that("a problem with a prior or with sources refits by the workers of gp_finite() and gp_fit_miso(), to the same fit", {
  cand <- as.matrix(expand.grid(seq(0, 1, length.out = 6),
                                seq(0, 1, length.out = 5)))
  K <- exp(-as.matrix(stats::dist(cand))^2 / (2 * 0.3^2)) + diag(1e-8, 30L)
  fin <- bo_problem(function(x) sin(3 * x[1]) + cos(2 * x[2]),
                    candidates = cand, cost = function(x) 1 + x[1],
                    budget = 8, prior = list(mean = rep(0, 30L), cov = K),
                    noise = 1e-6, maximize = FALSE)
  miso <- test_problem_miso("rosenbrock", budget = 60, seed = 2)
  for (pr in list(fin, miso)) {
    pol <- if (identical(pr, miso)) policy_kg(n_nodes = 3, n_cand = 10) else
      policy_ei()
    run <- bo_optimize(pr, pol, n_init = 4, seed = 1, max_evaluations = 1,
                       charge_initial = FALSE, progress = FALSE)
    md <- costbo:::state_model_data(run)
    refit <- costbo:::problem_fit(pr, run, md$use, md$y)
    checked <- if (identical(pr, fin)) {
      gp_finite(-rep(0, 30L), K, x = run$index[md$use], y = md$y,
                noise = 1e-6)
    } else {
      gp_fit_miso(run$X[md$use, , drop = FALSE], run$source[md$use], md$y,
                  n_sources = pr$n_sources, lower = pr$lower,
                  upper = pr$upper, start = run$models$f)
    }
    expect_identical(refit, checked)
    # too little data is said as for a box
    if (identical(pr, miso)) {
      expect_error(costbo:::problem_fit(pr, run, md$use, rep(1, length(md$y))),
                   "at least two successful evaluations with different values",
                   class = "costbo_error")
    }
  }
  # the problem keeps its prior as gp_finite() read it
  expect_identical(fin$prior, list(mean = -rep(0, 30L), cov = K))
})
