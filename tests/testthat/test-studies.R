# The studies of inst/scripts: the part/join mechanism and the provenance of
# the cached results in inst/extdata.

study_env <- function() {
  env <- new.env(parent = globalenv())
  sys.source(system.file("scripts", "study.R", package = "costbo"), envir = env)
  env
}

test_that("parts are written, joined and replayed bit for bit", {
  s <- study_env()
  prob <- quote(list(branin = test_problem("branin", budget = 3)))
  parts <- list(
    myopic = s$study_recipe(prob, quote(list(EI = policy_ei(),
                                             UCB = policy_ucb())),
                            2L, n_init = 3L),
    # a recipe in a string, as parts made before recipes were calls hold
    kg = s$study_recipe('list(branin = test_problem("branin", budget = 3))',
                        'list(KG = policy_kg())', 2L, n_init = 3L))
  dir <- tempfile()
  on.exit(unlink(dir, recursive = TRUE))
  expect_message(s$study_run_parts(parts, names(parts), dir, progress = FALSE),
                 "written")
  expect_true(all(file.exists(file.path(dir, c("myopic.rds", "kg.rds")))))
  # a part on disk is not run again
  expect_message(s$study_run_parts(parts, "kg", dir), "done already")
  j <- s$study_join(parts, dir)
  expect_s3_class(j$benchmark, "bo_benchmark")
  expect_setequal(unique(j$benchmark$tasks$policy), c("EI", "UCB", "KG"))
  expect_identical(j$provenance$build$source_hash, costbo_build()$source_hash)
  expect_identical(j$provenance$recipes$kg, parts$kg)
  # the replay cell is the fastest first replication of the study
  rp <- j$provenance$replay
  secs <- vapply(Filter(function(r) r$rep == 1L, j$benchmark$records),
                 `[[`, 0, "seconds")
  expect_equal(rp$record$seconds, min(secs))
  expect_true(s$study_replay(j$provenance))
  # a record that differs from what the code makes is caught
  bad <- j$provenance
  bad$replay$record$trace$value[2] <- bad$replay$record$trace$value[2] + 1e-12
  expect_false(s$study_replay(bad))
  # `list` reports each part from its file
  ls <- s$study_list(c(parts, list(more = parts$kg)), dir)
  expect_identical(ls$part, c("myopic", "kg", "more"))
  expect_identical(ls$status, c("made", "made", "to run"))
  expect_identical(ls$build[1:2],
                   rep(substr(costbo_build()$source_hash, 1L, 8L), 2L))
  expect_true(all(ls$seconds[1:2] >= 0) && is.na(ls$seconds[3]))
  # with the CPU seconds of each part (at most its wall seconds on one
  # process, give or take the clock's resolution)
  expect_true(all(ls$cpu_seconds[1:2] >= 0) && is.na(ls$cpu_seconds[3]))
  expect_true(all(ls$cpu_seconds[1:2] <= ls$seconds[1:2] + 1))
  expect_true(all(nzchar(ls$date[1:2])))
  # the script's recipe for a part changed since the part was made (another
  # problem setting, policy argument or protocol): listed as to run, refused
  # by join; the same recipe written otherwise (a string, arguments by
  # their old names or out of order, integers as doubles, the defaults of
  # fields older recipes lack) is the same
  same <- parts
  same$myopic <- s$study_recipe(
    quote(list(branin = test_problem(budget = 3, name = "branin"))),
    quote(list(EI = policy_ei(), UCB = policy_ucb())), 2, n_init = 3,
    budget_rule = "stop", charge_initial = FALSE, design = "sobol")
  expect_true(s$study_recipe_same(parts$myopic, same$myopic))
  expect_s3_class(s$study_join(same, dir)$benchmark, "bo_benchmark")
  expect_true(s$study_recipe_same(
    s$study_recipe(quote(list(p = test_problem_cvs("hartmann3",
                                                   costs = "cheap"))),
                   quote(list(ucb = policy_ucb())), 1L),
    s$study_recipe(quote(list(p = test_problem_cvs("hartmann3",
                                                   cost_set = "cheap"))),
                   quote(list(ucb = policy_ucb())), 1L)))
  changed <- list(
    problem = quote(list(branin = test_problem("branin", budget = 4))),
    policy = quote(list(EI = policy_ei(), UCB = policy_ucb(beta = 3))),
    reps = 3L, design = "minimax", charge_initial = TRUE)
  for (what in names(changed)) {
    other <- parts
    r <- other$myopic
    r[[switch(what, problem = "problems", policy = "policies", what)]] <-
      changed[[what]]
    other$myopic <- r
    expect_false(s$study_recipe_same(parts$myopic, other$myopic))
    expect_identical(s$study_list(other, dir)$status[1],
                     "to run (recipe changed)")
    expect_error(s$study_join(other, dir), "another recipe.*myopic")
  }
  # and `run` runs such a part again, from its new recipe
  other <- parts
  other$myopic$reps <- 1L
  expect_message(s$study_run_parts(other, "myopic", dir, progress = FALSE),
                 "recipe changed, running again")
  expect_identical(readRDS(file.path(dir, "myopic.rds"))$recipe$reps, 1L)
  expect_identical(s$study_list(other, dir)$status[1], "made")
})

# A policy whose proposals a test can change, as a change of its code
# would: EI's points shrunk towards 0 by the option costbo.test.shrink.
shrunk_recipe <- function(s) {
  s$study_recipe(quote(list(branin = test_problem("branin", budget = 3))),
                 quote(list(Shrunk = local({
                   ei <- policy_ei()
                   pol <- ei
                   pol$propose <- function(state) {
                     p <- ei$propose(state)
                     p$x <- p$x * (1 - getOption("costbo.test.shrink", 0))
                     p
                   }
                   pol
                 }))), 2L, n_init = 3L)
}

# Make a part file look made by another build (source hash all zeros).
as_other_build <- function(f) {
  p <- readRDS(f)
  p$build$source_hash <- strrep("0", 32L)
  p$benchmark$provenance$source_hash <- strrep("0", 32L)
  saveRDS(p, f)
  p
}

test_that("parts of another build are certified by their behaviour fingerprint", {
  s <- study_env()
  parts <- list(
    ei = s$study_recipe(quote(list(branin = test_problem("branin", budget = 3),
                                   camel = function(r) {
                                     test_problem("six_hump_camel", budget = 3)
                                   })),
                        quote(list(EI = policy_ei(), UCB = policy_ucb())), 2L,
                        n_init = 3L),
    shrunk = shrunk_recipe(s))
  dir <- tempfile()
  on.exit(unlink(dir, recursive = TRUE))
  s$study_run_parts(parts, names(parts), dir, progress = FALSE)
  f <- c(ei = file.path(dir, "ei.rds"), shrunk = file.path(dir, "shrunk.rds"))
  # each part records the fingerprint of its cells and policies, which the
  # build computes again identically
  p <- readRDS(f[["ei"]])
  expect_identical(names(p$fingerprint),
                   c("cell:branin/EI", "cell:branin/UCB", "cell:camel/EI",
                     "cell:camel/UCB", "policy:EI", "policy:UCB"))
  expect_true(all(grepl("^[0-9a-f]{32}$", p$fingerprint)))
  expect_identical(s$study_fingerprint(p), p$fingerprint)
  for (x in f) as_other_build(x)
  # a build that behaves the same (a comment, a refactoring) accepts every
  # part without a replay
  replays <- 0L
  real <- s$study_reproduces
  s$study_reproduces <- function(...) {
    replays <<- replays + 1L
    real(...)
  }
  expect_message(s$study_run_parts(parts, names(parts), dir),
                 "certified by an unchanged fingerprint")
  expect_identical(replays, 0L)
  cert <- readRDS(sub("[.]rds$", ".reproduced.rds", f[["ei"]]))
  expect_identical(cert$how, "fingerprint")
  expect_identical(cert$source_hash, costbo_build()$source_hash)
  expect_identical(s$study_list(parts, dir)$status,
                   rep("certified (fingerprint)", 2L))
  # once certified, a part is not checked again by this build
  expect_silent(s$study_certify(readRDS(f[["ei"]]), "ei", f[["ei"]]))
  # a build whose Shrunk policy proposes other points: only the part that
  # uses it is invalidated, and its replay fails
  unlink(sub("[.]rds$", ".reproduced.rds", f))
  old <- options(costbo.test.shrink = 1e-6)
  on.exit(options(old), add = TRUE)
  expect_message(s$study_certify(readRDS(f[["ei"]]), "ei", f[["ei"]]),
                 "certified by an unchanged fingerprint")
  expect_error(s$study_certify(readRDS(f[["shrunk"]]), "shrunk", f[["shrunk"]]),
               "fingerprint changed \\(cell:branin/Shrunk, policy:Shrunk\\).*does not reproduce it")
  expect_identical(replays, 1L)
  expect_error(s$study_join(parts, dir), "part shrunk")
  expect_identical(replays, 2L)
  options(old)
  # a part whose fingerprint changed but whose cheapest cell this build
  # reproduces is certified by the replay
  p <- readRDS(f[["shrunk"]])
  p$fingerprint[["policy:Shrunk"]] <- strrep("f", 32L)
  saveRDS(p, f[["shrunk"]])
  expect_message(s$study_certify(p, "shrunk", f[["shrunk"]]),
                 "reproduced by this build")
  expect_identical(replays, 3L)
  expect_identical(s$study_list(parts, dir)$status,
                   c("certified (fingerprint)", "certified (replay)"))
  j <- s$study_join(parts, dir)
  expect_true(all(j$provenance$parts$reproduced))
  expect_identical(j$provenance$parts$source_hash, rep(strrep("0", 32L), 2L))
  # a tampered part is refused, fingerprint or not, certificate or not
  p <- readRDS(f[["ei"]])
  p$benchmark$records[[1L]]$x[1L, 1L] <- p$benchmark$records[[1L]]$x[1L, 1L] + 1e-9
  saveRDS(p, f[["ei"]])
  expect_error(s$study_run_parts(parts, "ei", dir),
               "its records differ from those it was made with")
  expect_error(s$study_join(parts, dir), "part ei")
})

test_that("parts made before fingerprints get one from the build that certified them", {
  s <- study_env()
  parts <- list(kg = s$study_recipe(
    'list(branin = test_problem("branin", budget = 3))',
    'list(EI = policy_ei())', 2L, n_init = 3L))
  dir <- tempfile()
  on.exit(unlink(dir, recursive = TRUE))
  s$study_run_parts(parts, "kg", dir, progress = FALSE)
  f <- file.path(dir, "kg.rds")
  # a part as made before fingerprints: none recorded, another build
  p <- as_other_build(f)
  p$fingerprint <- p$data_digest <- NULL
  saveRDS(p, f)
  # without a fingerprint it is certified by a replay
  expect_message(s$study_run_parts(parts, "kg", dir),
                 "reproduced by this build")
  cert_file <- sub("[.]rds$", ".reproduced.rds", f)
  cert <- readRDS(cert_file)
  expect_identical(cert$how, "replay")
  expect_identical(cert$fingerprint, s$study_fingerprint(p))
  # a certificate of an older build without a fingerprint gets one from
  # the build it names, which a later build then compares with its own
  cert$fingerprint <- cert$data_digest <- NULL
  saveRDS(cert, cert_file)
  expect_message(s$study_record_fingerprints(parts, dir),
                 "fingerprint recorded")
  expect_identical(readRDS(cert_file)$fingerprint, s$study_fingerprint(p))
  cert <- readRDS(cert_file)
  cert$source_hash <- strrep("1", 32L)
  saveRDS(cert, cert_file)
  expect_message(s$study_certify(p, "kg", f),
                 "certified by an unchanged fingerprint")
  # a certificate holds for the part file it was made for only
  cert$part_md5 <- strrep("0", 32L)
  saveRDS(cert, cert_file)
  expect_message(s$study_certify(p, "kg", f), "reproduced by this build")
  # records changed after the certificate are refused
  p$benchmark$records[[1L]]$x[1L, 1L] <- p$benchmark$records[[1L]]$x[1L, 1L] + 1e-9
  p$benchmark$records[[2L]]$x[1L, 1L] <- p$benchmark$records[[2L]]$x[1L, 1L] + 1e-9
  saveRDS(p, f)
  expect_error(s$study_run_parts(parts, "kg", dir), "does not reproduce it")
})

test_that("a replication is replayed alone from its own stream", {
  s <- study_env()
  recipe <- s$study_recipe('list(branin = test_problem("branin", budget = 3))',
                           'list(EI = policy_ei())', 3:4, n_init = 3L)
  bm <- s$study_run(recipe)
  rec <- bm$records[[which(vapply(bm$records, `[[`, 0L, "rep") == 4L)]]
  expect_true(s$study_reproduces(recipe, rec))
  expect_identical(s$study_cheapest(bm)$rep, 3L)
  rec$rep <- 3L
  expect_false(s$study_reproduces(recipe, rec))
})

test_that("the slim cache agrees with the benchmark it summarizes", {
  s <- study_env()
  probs <- list(branin = test_problem("branin", budget = 4),
                camel = test_problem("six_hump_camel", budget = 3))
  bm <- bo_benchmark(probs, list(EI = policy_ei(), UCB = policy_ucb()),
                     reps = 4, n_init = 3, progress = FALSE)
  sl <- s$study_slim(bm, n_grid = 11L)
  expect_equal(nrow(sl$final), 16L)
  # the final measures give bo_compare()'s verdicts on the benchmark
  a <- bo_compare(bm, "EI", "UCB")
  b <- bo_compare(sl$final, "EI", "UCB", measure = "log10_regret",
                  higher_is_better = FALSE)
  b <- b[match(a$problem, b$problem), ]
  expect_equal(b$difference, a$difference, tolerance = 1e-14)
  expect_equal(b$upper, a$upper, tolerance = 1e-14)
  # the curves at the budget are summary()'s, and their quantiles are
  # quantile()'s of the replications
  sm <- summary(bm)
  cv <- sl$curves[sl$curves$cost == ave(sl$curves$cost, sl$curves$problem,
                                        FUN = max), ]
  m <- merge(sm, cv, by = c("problem", "policy"))
  expect_equal(m$mean.y, m$mean_log10_regret, tolerance = 1e-14)
  expect_equal(m$lower.y, m$log10_lower, tolerance = 1e-14)
  fin <- sl$final[sl$final$problem == "camel" & sl$final$policy == "EI", ]
  row <- cv[cv$problem == "camel" & cv$policy == "EI", ]
  expect_equal(row$median, median(fin$log10_regret))
  expect_equal(row$q25, unname(quantile(fin$log10_regret, 0.25)))
  # 11 grid points per cell, starting at cost 0
  expect_true(all(table(sl$curves$problem, sl$curves$policy) == 11L))
  expect_equal(min(sl$curves$cost), 0)
})

# A recipe whose problem measures its cost (a stand-in for a timing: the
# microseconds of the clock), recorded and replayed by the mechanism of
# inst/scripts/rf-boston-problem.R.
clock_cost_recipe <- function(policy, reps = 1L) {
  s <- study_env()
  s$study_recipe(paste0(
    'local({ source(system.file("scripts", "rf-boston-problem.R", ',
    'package = "costbo"), local = TRUE); ',
    'list(clock = function(r) bo_problem(study_recorded_objective(',
    'function(x, measure) list(value = -sum((x - 0.3)^2), cost = if (measure) ',
    '1 + x[1] + (as.numeric(Sys.time()) * 1e6) %% 1000 / 1e4), r), ',
    'lower = c(0, 0), upper = c(1, 1), budget = 4)) })'),
    policy, reps, n_init = 4L)
}

test_that("measured costs are recorded and replayed", {
  s <- study_env()
  recipe <- clock_cost_recipe('list(`EI-PU` = policy_ei_pu())', 2L)
  bm <- s$study_run(recipe)
  expect_null(getOption("costbo.study.costs"))
  for (rec in bm$records) {
    # one cost per evaluation, and those after the initial design add up
    # to the record's cumulative costs
    expect_length(rec$costs, nrow(rec$x))
    bo <- rec$trace$phase == "bo"
    expect_gt(sum(bo), 0L)
    expect_equal(cumsum(ifelse(bo, rec$costs, 0)), rec$trace$cumulative_cost,
                 tolerance = 0)
    # the costs are the clock's: 1 + x1 + up to 0.1
    expect_true(all(rec$costs >= 1 + rec$x[, 1] &
                      rec$costs < 1.1 + rec$x[, 1]))
  }
  rec <- bm$records[[1L]]
  expect_true(s$study_reproduces(recipe, rec))
  expect_null(getOption("costbo.study.replay"))
  # without its costs the replay measures new ones, and fails
  bare <- rec
  bare$costs <- NULL
  expect_false(s$study_reproduces(recipe, bare))
  # a changed cost after the initial design changes the cumulative cost
  changed <- rec
  k <- which(rec$trace$phase == "bo")[1L]
  changed$costs[k] <- changed$costs[k] * (1 + 1e-9)
  expect_false(s$study_reproduces(recipe, changed))
  # a changed cost of the initial design (not charged) changes the cost
  # model, hence the points EI-PU chooses
  changed <- rec
  changed$costs[1L] <- 2 * changed$costs[1L]
  expect_false(s$study_reproduces(recipe, changed))
  # the record of the other replication is not taken for this one
  other <- bm$records[[2L]]
  other$rep <- rec$rep
  expect_false(s$study_reproduces(recipe, other))
})

# One replication of EI-PU (3 initial points and 2 more) on the problem
# `fun` of the installed script `file`, whose costs are measured: the
# recipe and the record, after checks common to such problems.
measured_record <- function(s, file, fun) {
  recipe <- s$study_recipe(sprintf(paste0(
    'local({ source(system.file("scripts", "%s", package = "costbo"), ',
    'local = TRUE); list(`%s` = %s) })'), file, fun, fun),
    'list(`EI-PU` = policy_ei_pu())', 1L, n_init = 3L, max_evaluations = 2L)
  bm <- s$study_run(recipe)
  rec <- bm$records[[1L]]
  expect_identical(rec$status, "ok")
  expect_length(rec$costs, 5L)
  expect_true(all(rec$costs > 0))
  list(recipe = recipe, rec = rec)
}

test_that("the RF-Boston problem is the forest's CV, and its replays pass", {
  skip_on_cran()
  skip_if_not_installed("ranger")
  skip_if_not_installed("MASS")
  s <- study_env()
  m <- measured_record(s, "rf-boston-problem.R", "rf_boston")
  recipe <- m$recipe
  rec <- m$rec
  # the objective at the first point, computed directly: minus the 5-fold
  # CV mean squared error of medv with the folds of replication 1
  x <- rec$x[1L, ]
  data <- MASS::Boston
  set.seed(1L, kind = "Mersenne-Twister")
  folds <- sample(rep_len(1:5, nrow(data)))
  pred <- numeric(nrow(data))
  for (k in 1:5) {
    fit <- ranger::ranger(medv ~ ., data = data[folds != k, ],
                          num.trees = round(x[1]), max.depth = round(x[2]),
                          mtry = max(1, round(10^x[3] * 13)), num.threads = 1,
                          seed = 1L)
    pred[folds == k] <- predict(fit, data[folds == k, ], seed = 1L)$predictions
  }
  expect_equal(rec$trace$value[1L], -mean((data$medv - pred)^2),
               tolerance = 1e-12)
  expect_true(s$study_reproduces(recipe, rec))
  changed <- rec
  changed$costs[4L] <- changed$costs[4L] * (1 + 1e-9)
  expect_false(s$study_reproduces(recipe, changed))
})

test_that("a typed problem's measured costs are recorded and replayed by its typed points", {
  skip_on_cran()
  skip_if_not_installed("ranger")
  skip_if_not_installed("MASS")
  s <- study_env()
  m <- measured_record(s, "tuning-problem.R", "ranger_pima")
  recipe <- m$recipe
  rec <- m$rec
  # the objective at the first point, computed directly from its typed
  # values: minus the 5-fold CV Brier score with the folds of replication 1
  env <- new.env()
  sys.source(system.file("scripts", "tuning-problem.R", package = "costbo"),
             envir = env)
  x <- space_decode(env$pima_space(), rec$x[1L, , drop = FALSE])
  data <- rbind(MASS::Pima.tr, MASS::Pima.te)
  set.seed(1L, kind = "Mersenne-Twister")
  folds <- sample(rep_len(1:5, nrow(data)))
  prob <- numeric(nrow(data))
  for (k in 1:5) {
    fit <- ranger::ranger(type ~ ., data = data[folds != k, ],
                          probability = TRUE, num.trees = x$num.trees,
                          mtry = x$mtry, min.node.size = x$min.node.size,
                          sample.fraction = x$sample.fraction,
                          splitrule = as.character(x$splitrule),
                          num.threads = 1, seed = 1L)
    prob[folds == k] <- predict(fit, data[folds == k, ],
                                seed = 1L)$predictions[, "Yes"]
  }
  expect_equal(rec$trace$value[1L],
               -mean((prob - (data$type == "Yes"))^2), tolerance = 1e-12)
  # keys: numbers to 17 digits, categories by label
  expect_identical(env$study_point_key(list(a = 2L, b = 0.1, c = "gini")),
                   "2|0.10000000000000001|gini")
  expect_true(s$study_reproduces(recipe, rec))
  changed <- rec
  changed$costs[4L] <- changed$costs[4L] * (1 + 1e-9)
  expect_false(s$study_reproduces(recipe, changed))
})

# Caches whose replay needs a suggested package that may be missing (CI).
study_needs <- list(`rf-boston.rds` = c("ranger", "MASS"),
                    `tuning.rds` = c("ranger", "MASS"))

test_that("every cached study is reproduced by this build", {
  skip_on_cran()
  s <- study_env()
  files <- list.files(system.file("extdata", package = "costbo"),
                      pattern = "[.]rds$", full.names = TRUE)
  expect_gt(length(files), 0L)
  missing_pkgs <- character()
  for (f in files) {
    cache <- readRDS(f)
    if (is.null(cache$provenance$replay)) {
      # made before caches recorded their recipes; regenerated by the study
      # scripts in inst/scripts
      next
    }
    needs <- study_needs[[basename(f)]]
    if (!all(vapply(needs, requireNamespace, NA, quietly = TRUE))) {
      missing_pkgs <- c(missing_pkgs, basename(f))
      next
    }
    expect_true(s$study_replay(cache$provenance), label = basename(f))
  }
  old <- basename(files)[!vapply(files, function(f) {
    !is.null(readRDS(f)$provenance$replay)
  }, NA)]
  why <- c(if (length(old)) paste("caches without provenance, to regenerate:",
                                   paste(old, collapse = ", ")),
           if (length(missing_pkgs)) {
             paste("caches whose replay needs packages not installed:",
                   paste(missing_pkgs, collapse = ", "))
           })
  if (length(why)) skip(paste(why, collapse = "; "))
})
