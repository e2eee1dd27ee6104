test_that("paired intervals and verdicts agree with t.test()", {
  set.seed(11)
  d <- data.frame(problem = rep(c("p1", "p2", "p3"), each = 24),
                  policy = rep(rep(c("a", "b"), each = 12), 3),
                  rep = rep(1:12, 6))
  shift <- c(p1 = 1, p2 = -1, p3 = 0.05)
  d$score <- rnorm(nrow(d)) * 0.5 +
    ifelse(d$policy == "a", shift[d$problem], 0)
  cmp <- bo_compare(d, "a", "b", measure = "score", higher_is_better = TRUE)
  expect_s3_class(cmp, "bo_compare")
  expect_equal(cmp$problem, c("p1", "p2", "p3"))
  for (i in 1:3) {
    a <- d$score[d$problem == cmp$problem[i] & d$policy == "a"]
    b <- d$score[d$problem == cmp$problem[i] & d$policy == "b"]
    tt <- stats::t.test(a, b, paired = TRUE)
    expect_equal(cmp$difference[i], unname(tt$estimate), tolerance = 1e-12)
    expect_equal(c(cmp$lower[i], cmp$upper[i]), as.vector(tt$conf.int),
                 tolerance = 1e-12)
    expect_equal(cmp$mean_policy[i], mean(a))
  }
  expect_equal(cmp$verdict, c("reproduced", "refuted", "inconclusive"))
  expect_true(all(is.na(cmp$n_needed[1:2])))
  # n_needed: the smallest n at which z s / sqrt(n) < |mean| (normal rule)
  a <- d$score[d$problem == "p3" & d$policy == "a"]
  b <- d$score[d$problem == "p3" & d$policy == "b"]
  dd <- a - b
  z <- qnorm(0.975)
  n <- cmp$n_needed[3]
  expect_lte(z * sd(dd) / sqrt(n), abs(mean(dd)))
  expect_gt(z * sd(dd) / sqrt(n - 1), abs(mean(dd)))
  # lower is better: the orientation flips and so do the verdicts
  low <- bo_compare(d, "a", "b", measure = "score", higher_is_better = FALSE)
  expect_equal(low$difference, -cmp$difference)
  expect_equal(low$verdict, c("refuted", "reproduced", "inconclusive"))
  # the sentences carry the numbers and the verdicts
  s <- format(cmp)
  expect_length(s, 3L)
  expect_match(s[1], "^p1: that a has higher score than b is reproduced ")
  expect_match(s[2], "is refuted \\(means")
  expect_match(s[3], sprintf("is inconclusive .*; about %d would settle",
                             cmp$n_needed[3]))
  # only replications present for both policies are paired
  d2 <- d[!(d$policy == "b" & d$rep == 3), ]
  expect_equal(bo_compare(d2, "a", "b", "score", TRUE)$n, rep(11L, 3))
})

test_that("on a benchmark the measure is read at the budget or at a cost", {
  probs <- list(linear = known_cost_problem(budget = 5))
  # a free design: charged, the design of the linear problem (costs up to
  # 21) would not fit in the budget of 5 and no replication would have a
  # value to compare
  bm <- bo_benchmark(probs, list(EI = policy_ei(), UCB = policy_ucb()),
                     reps = 3, n_init = 3, n_grid = 11,
                     charge_initial = FALSE, progress = FALSE)
  df <- as.data.frame(bm)
  cmp <- bo_compare(bm, "EI", "UCB", measure = "regret")
  last <- df[df$cost == max(df$cost), ]
  expect_equal(cmp$mean_policy, mean(last$regret[last$policy == "EI"]))
  expect_equal(cmp$difference,
               mean(last$regret[last$policy == "UCB"] -
                      last$regret[last$policy == "EI"]))
  expect_identical(bo_compare(bm, "EI", "UCB")$measure, "log10_regret")
  at2 <- bo_compare(bm, "EI", "UCB", measure = "best_value", cost = 2.2)
  mid <- df[df$cost == 2, ]
  expect_equal(at2$mean_policy, mean(mid$best_value[mid$policy == "EI"]))
  expect_equal(at2$difference,
               mean(mid$best_value[mid$policy == "EI"] -
                      mid$best_value[mid$policy == "UCB"]))
  expect_output(print(cmp), "is EI better than UCB")
})

test_that("bo_compare() checks its arguments", {
  d <- data.frame(problem = "p", policy = rep(c("a", "b"), each = 3),
                  rep = rep(1:3, 2), s = 1:6)
  expect_error(bo_compare(d, "a", "c", "s", TRUE), class = "costbo_error_arg")
  expect_error(bo_compare(d, "a", "c", "s", TRUE), "`baseline`")
  expect_error(bo_compare(d, "a", "b", "s"), "`higher_is_better`")
  expect_error(bo_compare(d, "a", "b", "t", TRUE), "`x`")
  expect_error(bo_compare(1:3, "a", "b"), class = "costbo_error_arg")
  expect_error(bo_compare(d, c("a", "b"), "b", "s", TRUE), "`policy`")
  expect_error(bo_compare(d, "a", "b", "s", TRUE, level = 2), "`level`")
})

test_that("pairs are one-to-one: duplicated keys are refused (issue 39)", {
  d <- data.frame(problem = "p", policy = rep(c("a", "b"), each = 4),
                  rep = rep(1:4, 2), gap = c(0.9, 0.8, 0.95, 0.85,
                                             0.7, 0.85, 0.8, 0.9))
  # the paired t interval computed independently
  dd <- d$gap[1:4] - d$gap[5:8]
  h <- qt(0.975, 3) * sd(dd) / sqrt(4)
  cmp <- bo_compare(d, "a", "b", measure = "gap", higher_is_better = TRUE)
  expect_identical(cmp$n, 4L)
  expect_equal(cmp$difference, mean(dd), tolerance = 1e-12)
  expect_equal(c(cmp$lower, cmp$upper), mean(dd) + c(-h, h),
               tolerance = 1e-12)
  expect_identical(cmp$verdict, "inconclusive")
  cl <- bo_claim(d, "a has a larger gap", "a", "b", measure = "gap",
                 higher_is_better = TRUE)
  expect_identical(cl$n, 4L)
  expect_equal(c(cl$difference, cl$lower, cl$upper),
               mean(dd) + c(0, -h, h), tolerance = 1e-12)
  expect_identical(cl$verdict, "inconclusive")
  # the same rows twice, identical in every column: not 16 pairs but an
  # error naming `x` and a duplicated key
  twice <- rbind(d, d)
  for (f in list(
    function(x) bo_compare(x, "a", "b", measure = "gap",
                           higher_is_better = TRUE),
    function(x) bo_claim(x, "a has a larger gap", "a", "b", measure = "gap",
                         higher_is_better = TRUE))) {
    e <- expect_error(f(twice), class = "costbo_error_arg")
    expect_identical(e$arg, "x")
    expect_match(conditionMessage(e),
                 "`x` must .*one row per .*problem \"p\", policy \"a\", rep 1")
  }
  # one repeated replication with another value is refused too
  one <- rbind(d, transform(d[6, ], gap = 0.1))
  expect_error(bo_compare(one, "a", "b", measure = "gap",
                          higher_is_better = TRUE),
               "policy \"b\", rep 2", class = "costbo_error_arg")
})

test_that("bo_claim() pools the paired differences of its problems", {
  set.seed(12)
  d <- data.frame(problem = rep(c("p1", "p2", "p3"), each = 30),
                  policy = rep(rep(c("a", "b"), each = 15), 3),
                  rep = rep(1:15, 6))
  shift <- c(p1 = 0.6, p2 = 0.5, p3 = -0.05)
  d$regret <- rnorm(nrow(d)) + ifelse(d$policy == "a", -shift[d$problem], 0)
  cl <- bo_claim(d, "a beats b", "a", "b", measure = "regret",
                 higher_is_better = FALSE)
  expect_s3_class(cl, "bo_claim")
  # independent: the pooled pairs by hand and t.test()
  dd <- unlist(lapply(c("p1", "p2", "p3"), function(p) {
    d$regret[d$problem == p & d$policy == "b"] -
      d$regret[d$problem == p & d$policy == "a"]
  }))
  tt <- stats::t.test(dd)
  expect_equal(cl$n, 45L)
  expect_equal(cl$difference, unname(tt$estimate), tolerance = 1e-12)
  expect_equal(c(cl$lower, cl$upper), as.vector(tt$conf.int), tolerance = 1e-12)
  expect_identical(cl$verdict, if (tt$conf.int[1] > 0) "reproduced" else
    if (tt$conf.int[2] < 0) "refuted" else "inconclusive")
  # the per-problem verdicts are bo_compare()'s
  each <- bo_compare(d, "a", "b", "regret", FALSE)$verdict
  tab <- table(factor(each, c("reproduced", "refuted", "inconclusive")))
  tab <- tab[tab > 0]
  expect_identical(cl$by_problem,
                   sprintf("%s of 3", paste(names(tab), "on", tab, collapse = ", ")))
  # a subset of problems; the opposite claim is refuted
  one <- bo_claim(d, "b beats a on p1", "b", "a", problems = "p1",
                  measure = "regret", higher_is_better = FALSE)
  tt1 <- stats::t.test(d$regret[d$problem == "p1" & d$policy == "a"] -
                         d$regret[d$problem == "p1" & d$policy == "b"])
  expect_equal(one$difference, unname(tt1$estimate), tolerance = 1e-12)
  expect_identical(one$problems, "p1")
  expect_identical(one$verdict, if (tt1$conf.int[2] < 0) "refuted" else
    "inconclusive")
  # an inconclusive claim says how many pairs would settle it
  p3 <- bo_claim(d, "a beats b on p3", "a", "b", problems = "p3",
                 measure = "regret", higher_is_better = FALSE)
  d3 <- d$regret[d$problem == "p3" & d$policy == "b"] -
    d$regret[d$problem == "p3" & d$policy == "a"]
  if (p3$verdict == "inconclusive") {
    expect_lte(qnorm(0.975) * sd(d3) / sqrt(p3$n_needed), abs(mean(d3)))
    expect_gt(qnorm(0.975) * sd(d3) / sqrt(p3$n_needed - 1), abs(mean(d3)))
  }
  # a table of claims and its sentences
  tab <- rbind(cl, one, p3)
  expect_s3_class(tab, "bo_claim")
  s <- format(tab)
  expect_length(s, 3L)
  expect_match(s[1], sprintf("^\"a beats b\": %s \\(a against b, regret; ",
                             cl$verdict))
  expect_match(s[2], "45|15 pairs on p1")
  expect_output(print(tab), "a beats b")
})

test_that("bo_claim() checks its arguments", {
  d <- data.frame(problem = "p", policy = rep(c("a", "b"), each = 3),
                  rep = rep(1:3, 2), s = c(1, 2, 3, 2, 3, 5))
  expect_error(bo_claim(d, 1, "a", "b", measure = "s", higher_is_better = TRUE),
               "`claim`")
  expect_error(bo_claim(d, "c", "a", "b", problems = "q", measure = "s",
                        higher_is_better = TRUE), "`problems`")
  expect_error(bo_claim(d, "c", "a", "z", measure = "s",
                        higher_is_better = TRUE), "`baseline`")
  expect_error(bo_claim(d, "c", "a", "b", measure = "s"), "`higher_is_better`")
})

test_that("each sentence formats its own numbers", {
  d <- data.frame(problem = rep(c("p", "q"), each = 8),
                  policy = rep(rep(c("a", "b"), each = 4), 2),
                  rep = rep(1:4, 4),
                  s = c(1, 2, 3, 4, 0, 1, 2, 3, 100, 210, 300, 400, 0, 1, 2, 3))
  tab <- rbind(bo_claim(d, "p", "a", "b", problems = "p", measure = "s",
                        higher_is_better = TRUE),
               bo_claim(d, "q", "a", "b", problems = "q", measure = "s",
                        higher_is_better = TRUE))
  s <- format(tab)
  # no padding or digits borrowed from the other row
  expect_match(s[1], "mean paired difference 1, ")
  cmp <- bo_compare(d, "a", "b", measure = "s", higher_is_better = TRUE)
  expect_match(format(cmp)[1], "paired difference 1, ")
})

test_that("the best value of a minimized problem is better when lower", {
  loss <- function(x) 1 + sum((x - c(0.3, 0.6))^2)
  probs <- list(
    lo = bo_problem(loss, c(0, 0), c(1, 1), cost = 1, budget = 7,
                    maximize = FALSE),
    hi = bo_problem(function(x) -loss(x), c(0, 0), c(1, 1), cost = 1,
                    budget = 7))
  bm <- bo_benchmark(probs, list(EI = policy_ei(), R = policy_random()),
                     reps = 4, n_init = 3, n_grid = 5, progress = FALSE)
  cmp <- bo_compare(bm, "EI", "R", measure = "best_value")
  lo <- cmp[cmp$problem == "lo", ]
  hi <- cmp[cmp$problem == "hi", ]
  # the means in each problem's direction, the difference favouring EI in
  # both when EI finds the smaller loss
  expect_identical(lo$mean_policy, -hi$mean_policy)
  expect_identical(lo$difference, hi$difference)
  fin <- bm$replications
  pick <- function(p, q) fin$best_value[fin$problem == p & fin$policy == q]
  d_lo <- pick("lo", "R") - pick("lo", "EI")
  expect_equal(lo$difference, mean(d_lo), tolerance = 1e-12)
  expect_equal(c(lo$lower, lo$upper),
               as.vector(stats::t.test(d_lo)$conf.int), tolerance = 1e-12)
  expect_identical(attr(cmp, "higher_is_better"), c(FALSE, TRUE))
  s <- format(cmp)
  expect_match(s[1], "^lo: that EI has lower best value than R is ")
  expect_match(s[2], "^hi: that EI has higher best value than R is ")
  # pooled: each problem's pairs oriented by its own direction
  cl <- bo_claim(bm, "EI finds better values", "EI", "R",
                 measure = "best_value")
  dd <- c(d_lo, pick("hi", "EI") - pick("hi", "R"))
  expect_equal(cl$difference, mean(dd), tolerance = 1e-12)
  expect_equal(c(cl$lower, cl$upper),
               as.vector(stats::t.test(dd)$conf.int), tolerance = 1e-12)
  expect_identical(cl$n, 8L)
})
