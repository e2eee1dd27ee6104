test_that("every policy of the guide is the call that makes it", {
  g <- bo_policy_guide()
  expect_s3_class(g, "bo_policy_guide")
  expect_gt(nrow(g), 20L)
  expect_false(anyNA(g$policy))
  for (p in unique(g$policy)) {
    e <- str2lang(p)
    expect_true(is.call(e), info = p)
    expect_match(as.character(e[[1L]]), "^policy_", info = p)
    pol <- expect_silent(eval(e, asNamespace("costbo")))
    expect_s3_class(pol, "bo_policy")
  }
  # the calls are the studies' recipes, with the arguments named
  at <- function(setting, label) {
    g$policy[startsWith(g$setting, setting) & g$label == label]
  }
  expect_equal(at("measured cost, typed", "4-B-MS-EI_p"),
               "policy_bmsei(steps = 4, path = TRUE)")
  expect_equal(at("measured cost, synthetic", "4-B-MS-EI"),
               "policy_bmsei(steps = 4, fantasies = c(4, 4, 2))")
  expect_equal(at("measured cost, model tuning", "4-B-MS-EI"),
               "policy_bmsei(steps = 4)")
  # (the deprecated policy_rollout() of the rollout study's recipes, as
  # the call that makes the same policy)
  expect_equal(at("known cost, d = 2", "CMDP rollout h = 2"),
               paste("policy_cmdp_rollout(horizon = 2, n_samples = 64,",
                     "fantasy = \"observation\", optimizer = \"compass\")"))
  expect_equal(at("unit cost", "rolling horizon"),
               "policy_kg_rollout(horizon = \"adaptive\", fantasy = \"observation\")")
  expect_equal(at("known cost, d = 4-32", "PBGI"),
               "policy_pbgi(lambda = 1e-04)")
  expect_equal(at("control sets", "ETC-Ada"),
               "policy_etc(plays = \"adaptive\", beta = 2, n_samples = 256L)")
  expect_equal(at("measured cost, typed", "EI-PU-CC"), "policy_ei_pu_cc()")
})

test_that("a label's call comes from the recipes, NA when they disagree", {
  cache <- list(provenance = list(recipes = list(
    a = list(policies = "list(EI = policy_ei(), `R 2` = policy_rollout(2))"),
    b = list(policies = quote(list(`R 2` = policy_rollout(2),
                                   U = policy_ucb(1)))),
    c = list(policies = "list(U = policy_ucb(beta = 2))"))))
  calls <- costbo:::guide_calls(cache)
  expect_equal(calls[["EI"]], "policy_ei()")
  expect_equal(calls[["R 2"]],
               paste("policy_cmdp_rollout(horizon = 2, n_samples = 64,",
                     "fantasy = \"observation\", optimizer = \"compass\")"))
  expect_true(is.na(calls[["U"]]))
})

test_that("an unknown setting is refused, naming `setting` and the settings", {
  err <- expect_error(bo_policy_guide("measured costs, typo"),
                      class = "costbo_error_arg")
  expect_match(conditionMessage(err), "`setting`")
  expect_match(conditionMessage(err), "measured costs, typo", fixed = TRUE)
  for (s in vapply(costbo:::guide_settings(), `[[`, "", "setting")) {
    expect_match(conditionMessage(err), s, fixed = TRUE)
  }
  # one unknown among known ones, the empty string, a number, NA
  expect_error(bo_policy_guide(c("known cost", "nope")),
               class = "costbo_error_arg")
  expect_error(bo_policy_guide(""), class = "costbo_error_arg")
  expect_error(bo_policy_guide(1), class = "costbo_error_arg")
  expect_error(bo_policy_guide(NA_character_), class = "costbo_error_arg")
  # a start of names keeps every setting it starts
  k <- bo_policy_guide("known cost")
  expect_setequal(unique(k$setting),
                  c("known cost, d = 2", "known cost, d = 4-32"))
})

test_that("ranks and the comparisons with the first agree with t.test()", {
  setting <- "measured cost, synthetic, d = 2-4"
  g <- bo_policy_guide(setting)
  fin <- readRDS(system.file("extdata", "budgeted-lookahead.rds",
                             package = "costbo"))$final
  fin <- fin[is.finite(fin$log10_regret), ]
  m <- tapply(fin$log10_regret, list(fin$problem, fin$policy), mean)
  r <- t(apply(m, 1L, rank))
  expect_equal(g$mean_rank, unname(colMeans(r)[g$label]))
  expect_equal(g$best_on, unname(colSums(r == 1)[g$label]))
  expect_true(all(diff(g$mean_rank) >= 0))
  first <- g$label[1L]
  expect_true(is.na(g$behind_first[1L]) && is.na(g$ahead_of_first[1L]))
  for (i in seq_len(nrow(g))[-1L]) {
    v <- vapply(rownames(m), function(pb) {
      a <- fin[fin$problem == pb & fin$policy == first, c("rep", "log10_regret")]
      b <- fin[fin$problem == pb & fin$policy == g$label[i],
               c("rep", "log10_regret")]
      ab <- merge(a, b, by = "rep")
      # lower regret is better: positive favours the first-ranked policy
      ci <- stats::t.test(ab[[3]], ab[[2]], paired = TRUE)$conf.int
      if (ci[1] > 0) "first" else if (ci[2] < 0) "other" else "noise"
    }, "")
    expect_equal(g$behind_first[i], sum(v == "first"), info = g$label[i])
    expect_equal(g$ahead_of_first[i], sum(v == "other"), info = g$label[i])
  }
})

test_that("print() says why the first policy of each setting is first", {
  g <- bo_policy_guide()
  out <- capture.output(print(g))
  text <- gsub("\\s+", " ", paste(out, collapse = " "))
  for (s in unique(g$setting)) expect_match(text, s, fixed = TRUE)
  firsts <- g$policy[!duplicated(g$setting)]
  for (f in firsts) {
    expect_match(text, paste(f, "ranks first"), fixed = TRUE)
  }
  expect_length(gregexpr("ranks first", text)[[1]], length(firsts))
  # a setting whose order is within noise says so
  typed <- g[g$setting == "measured cost, typed space", ]
  note <- costbo:::guide_note(typed)
  if (all(typed$behind_first %in% c(NA, 0)) &&
      all(typed$ahead_of_first %in% c(NA, 0))) {
    expect_match(note, "within noise")
  }
  expect_true(startsWith(note, paste(typed$policy[1], "ranks first")))
  expect_match(note, sprintf("best on %d of 1 problem", typed$best_on[1]))
  # rows without the first-ranked policy print no sentence about it
  expect_identical(costbo:::guide_note(typed[-1L, ]), "")
  capture.output(res <- withVisible(print(g)))
  expect_false(res$visible)
  expect_identical(res$value, g)
})
