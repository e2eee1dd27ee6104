# The studies of inst/scripts: the part/join mechanism and the provenance of
# the cached results in inst/extdata.

study_env <- function() {
  env <- new.env(parent = globalenv())
  sys.source(system.file("scripts", "study.R", package = "costbo"), envir = env)
  env
}

test_that("parts are written, joined and replayed bit for bit", {
  s <- study_env()
  prob <- 'list(branin = test_problem("branin", budget = 3))'
  parts <- list(
    myopic = s$study_recipe(prob, 'list(EI = policy_ei(), UCB = policy_ucb())',
                            2L, n_init = 3L),
    kg = s$study_recipe(prob, 'list(KG = policy_kg())', 2L, n_init = 3L))
  dir <- tempfile()
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
  # a part made by another build is used once this build reproduces it
  f <- file.path(dir, "kg.rds")
  p <- readRDS(f)
  p$build$source_hash <- strrep("0", 32L)
  p$benchmark$provenance$source_hash <- strrep("0", 32L)
  saveRDS(p, f)
  expect_message(s$study_run_parts(parts, "kg", dir), "reproduced by this build")
  expect_identical(readRDS(f)$reproduced_by$source_hash,
                   costbo_build()$source_hash)
  j2 <- s$study_join(parts, dir)
  expect_identical(j2$provenance$parts$source_hash,
                   c(costbo_build()$source_hash, strrep("0", 32L)))
  expect_true(all(j2$provenance$parts$reproduced))
  expect_identical(j2$benchmark$records, j$benchmark$records)
  # ... and not when it does not
  p$benchmark$records[[1L]]$x[1L, 1L] <- p$benchmark$records[[1L]]$x[1L, 1L] + 1e-9
  p$benchmark$records[[2L]]$x[1L, 1L] <- p$benchmark$records[[2L]]$x[1L, 1L] + 1e-9
  saveRDS(p, f)
  expect_error(s$study_run_parts(parts, "kg", dir), "does not reproduce it")
  expect_error(s$study_join(parts, dir), "does not reproduce it")
  expect_error(s$study_join(c(parts, list(more = parts$kg)), dir),
               "not run yet: more")
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

test_that("every cached study is reproduced by this build", {
  skip_on_cran()
  s <- study_env()
  files <- list.files(system.file("extdata", package = "costbo"),
                      pattern = "[.]rds$", full.names = TRUE)
  expect_gt(length(files), 0L)
  for (f in files) {
    cache <- readRDS(f)
    if (is.null(cache$provenance$replay)) {
      # made before caches recorded their recipes; regenerated by the study
      # scripts in inst/scripts
      next
    }
    expect_true(s$study_replay(cache$provenance), label = basename(f))
  }
  old <- basename(files)[!vapply(files, function(f) {
    !is.null(readRDS(f)$provenance$replay)
  }, NA)]
  if (length(old)) {
    skip(paste("caches without provenance, to regenerate:",
               paste(old, collapse = ", ")))
  }
})
