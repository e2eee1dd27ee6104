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
  bm <- bo_benchmark(probs, list(EI = policy_ei(), UCB = policy_ucb()),
                     reps = 3, n_init = 3, n_grid = 11, progress = FALSE)
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
