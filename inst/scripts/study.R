# Parts, joins and provenance of the studies in inst/scripts, sourced by
# each study script.
#
# A study is a list of parts. A part is one bo_benchmark() call given as a
# recipe: the R code (text) that builds its problems and its policies, and
# its settings (replications, initial design, models). Each part is run on
# its own and written to <dir>/<part>.rds as soon as it is done, with the
# build of costbo that made it (costbo_build()) and the command line, so a
# study can be spread over sessions and machines and committed part by part.
#
# Builds. A study takes longer than the code stays unchanged, so a part made
# by another build (another hash of R/ and src/) is certified by behaviour.
# With each part the build that makes it records its behaviour fingerprint
# for the part's policies and problems (study_fingerprint()): the digests
# of (a) every cell of the part, its problem and policy run for
# `study_fingerprint_steps` steps after the initial design from the stream
# of the cell's first replication (with the costs that replication
# measured, for problems that measure theirs), and (b) every policy of the
# part run to the end of the budget of small problems of the kinds the
# part's problems are (study_canonical_problems()). A later build whose
# fingerprint is the same accepts the part without a replay, so a comment,
# a refactoring or a speed-up that leaves the runs unchanged certifies
# every part at the cost of the fingerprints, and a change to one policy
# invalidates only the parts that use it. A part whose fingerprint changed
# (or that has none) is used only once the installed build has reproduced
# it: the first replication of its cheapest cell is re-run and must equal
# the part's record bit for bit (the test the package applies to its
# caches). Either way the certificate (the certifying build, how, the date,
# the fingerprint and the MD5 of the part file) is written next to the part
# file, in <part>.reproduced.rds, so the large part file is never
# rewritten; a part that is not reproduced stops the script, which says
# so. The join reads all parts (certified or of the installed build), keeps
# the build that made each, and writes the cache for the vignette in
# inst/extdata with the recipes and, for the provenance test of the
# package (tests/testthat/test-studies.R), the first replication of the
# study's cheapest cell together with its recipe: re-running that recipe
# with the installed build must reproduce the cached record bit for bit.
#
# Measured costs. A cost that is measured (e.g. a training time) cannot be
# reproduced, so a problem that measures its costs records them and replays
# them, through two options set here (inst/scripts/rf-boston-problem.R is
# such a problem): while study_run() runs a recipe, `costbo.study.costs` is a
# directory to which each problem built writes the points it evaluated and
# their costs, and study_run() attaches to each record the costs of its run
# (`record$costs`, one per row of `record$x`, from the log of the same
# replication at the same points whose charged costs add up to the record's
# cumulative costs); the logs are written by the sequential and the fork
# ("parallel" on unix) back ends, whose workers inherit the option. While
# study_reproduces() replays a record, `costbo.study.replay` is that record,
# and such a problem returns at each point the cost recorded for the same
# point (its objective is still computed). The replay then checks every
# value and every decision of the code given the observed costs. Problems
# with computed costs ignore both options.

# A recipe. `problems` and `policies` are quoted R calls (quote(),
# bquote()) evaluated with costbo attached; they must give named lists.
# (Parts written before recipes were calls hold R code in strings, which
# study_eval() still reads.)
# `virtual_workers` runs every replication on that many virtual workers of
# the simulated clock (bo_benchmark()).
# `budget_rule` and `charge_initial` are the protocol's budget accounting
# (bo_benchmark()): the papers' protocols end a run at the first proposal
# that does not fit ("stop") and do not charge the initial design; recipes
# made before these were recorded ran so.
study_recipe <- function(problems, policies, reps, n_init = NULL,
                         model = list(), max_evaluations = NULL, seed = 1L,
                         virtual_workers = NULL, budget_rule = "stop",
                         charge_initial = FALSE, design = NULL) {
  out <- list(problems = problems, policies = policies, reps = reps,
              n_init = n_init, model = model,
              max_evaluations = max_evaluations, seed = seed,
              virtual_workers = virtual_workers, budget_rule = budget_rule,
              charge_initial = charge_initial)
  # (recipes made before designs could be chosen have none: Sobol points)
  if (!is.null(design)) out$design <- design
  out
}

# The budget accounting of a recipe (see study_recipe()) as arguments of
# the installed bo_benchmark() (builds before the budget rule have none).
study_budget_args <- function(recipe) {
  args <- list(charge_initial = if (is.null(recipe$charge_initial)) FALSE else
    recipe$charge_initial)
  if (!is.null(recipe$design)) args$design <- recipe$design
  if ("budget_rule" %in% names(formals(bo_benchmark))) {
    args$budget_rule <- if (is.null(recipe$budget_rule)) "stop" else
      recipe$budget_rule
  }
  args
}

study_eval <- function(code) {
  env <- new.env(parent = globalenv())
  if (is.character(code)) {
    return(eval(parse(text = code, keep.source = FALSE), envir = env))
  }
  eval(code, envir = env)
}

# Run one recipe (reps may be replaced, e.g. by 1 for a replay), with the
# measured costs its problems log attached to the records.
study_run <- function(recipe, reps = recipe$reps, backend = "sequential",
                      processes = NULL, progress = FALSE) {
  log <- tempfile("costbo-costs-")
  dir.create(log)
  old <- options(costbo.study.costs = log)
  on.exit({
    options(old)
    unlink(log, recursive = TRUE)
  })
  problems <- study_eval(recipe$problems)
  policies <- study_eval(recipe$policies)
  # (builds before asynchronous runs have no virtual_workers; a call, not
  # do.call(), so that the benchmark's recorded call stays small)
  budget <- study_budget_args(recipe)
  bm <- if (is.null(recipe$virtual_workers)) {
    bo_benchmark(problems, policies, reps = reps, backend = backend,
                 processes = processes, seed = recipe$seed,
                 n_init = recipe$n_init,
                 max_evaluations = recipe$max_evaluations,
                 gp_args = recipe$model, progress = progress,
                 charge_initial = budget$charge_initial,
                 budget_rule = budget$budget_rule,
                 design = if (is.null(budget$design)) "sobol" else budget$design)
  } else {
    bo_benchmark(problems, policies, reps = reps, backend = backend,
                 processes = processes, seed = recipe$seed,
                 n_init = recipe$n_init,
                 max_evaluations = recipe$max_evaluations,
                 gp_args = recipe$model, progress = progress,
                 virtual_workers = recipe$virtual_workers,
                 charge_initial = budget$charge_initial,
                 budget_rule = budget$budget_rule,
                 design = if (is.null(budget$design)) "sobol" else budget$design)
  }
  study_attach_costs(bm, log)
}

# Attach to each ok record the costs of its run logged in `dir`: the log of
# the same replication at the same points whose charged costs (after the
# initial design; as.data.frame.bo_run()) add up to the record's cumulative
# costs bit for bit.
study_attach_costs <- function(bm, dir) {
  logs <- lapply(list.files(dir, full.names = TRUE), readRDS)
  if (!length(logs)) return(bm)
  for (i in seq_along(bm$records)) {
    rec <- bm$records[[i]]
    if (rec$status != "ok") next
    for (l in logs) {
      if (!isTRUE(l$rep == rec$rep)) next
      # a typed problem logs the keys of its typed points (see
      # rf-boston-problem.R), others the points themselves
      same <- if (!is.null(l$keys)) {
        length(l$keys) == nrow(rec$x) &&
          identical(l$keys, study_record_keys(l$space, rec$x))
      } else identical(dim(l$x), dim(rec$x)) && all(l$x == rec$x)
      if (!same) next
      paid <- rec$trace$phase != "initial" & !is.na(l$costs)
      if (identical(cumsum(ifelse(paid, l$costs, 0)),
                    rec$trace$cumulative_cost)) {
        bm$records[[i]]$costs <- l$costs
        break
      }
    }
  }
  bm
}

# The keys of a record's typed points, by the recorder of measured costs
# (study_record_keys() of rf-boston-problem.R, one definition).
study_record_keys <- function(space, X) {
  e <- new.env()
  sys.source(system.file("scripts", "rf-boston-problem.R", package = "costbo"),
             envir = e)
  e$study_record_keys(space, X)
}

study_file <- function(dir, name) file.path(dir, paste0(name, ".rds"))

# Stop unless the packages a script needs are installed.
study_need_packages <- function(pkgs) {
  for (pkg in pkgs) {
    if (!requireNamespace(pkg, quietly = TRUE)) {
      stop("this script needs the ", pkg, " package: install.packages(\"",
           pkg, "\")", call. = FALSE)
    }
  }
}

# Wall seconds of `steps` acquisitions (model fits + policy) of each policy
# (named quoted calls or R code strings) on `problem`, after an initial
# design of n_init.
study_acquisition_seconds <- function(problem, policies, n_init, steps = 3L) {
  rows <- lapply(names(policies), function(name) {
    pol <- study_eval(policies[[name]])
    run <- bo_optimize(problem, pol, n_init = n_init, seed = 1L,
                       max_evaluations = steps, progress = FALSE)
    df <- as.data.frame(run)
    bo <- df$phase == "bo"
    data.frame(policy = name, step = seq_len(sum(bo)),
               fit_seconds = df$fit_time[bo],
               policy_seconds = df$policy_time[bo])
  })
  do.call(rbind, rows)
}

# The first replication of the cell (problem, policy) whose first
# replication was fastest, among the ok records of a benchmark.
study_cheapest <- function(bm) {
  first <- min(vapply(bm$records, `[[`, 0L, "rep"))
  recs <- Filter(function(r) r$rep == first && r$status == "ok", bm$records)
  if (!length(recs)) return(NULL)
  recs[[which.min(vapply(recs, `[[`, 0, "seconds"))]]
}

# Re-run one record's replication (its problem, policy and replication
# number, from its recipe) with the installed build; TRUE when the trace
# and the points are reproduced bit for bit. Problems with measured costs
# take the record's costs (option costbo.study.replay, see above).
study_reproduces <- function(recipe, record) {
  old <- options(costbo.study.replay = record)
  on.exit(options(old))
  # a recipe written with the argument names of its time replays as it ran
  withCallingHandlers(study_replay_record(recipe, record),
                      costbo_warning_deprecated = function(w) {
                        invokeRestart("muffleWarning")
                      })
}

# Replay a record (see study_reproduces()).
study_replay_record <- function(recipe, record) {
  new <- study_run_cell(recipe, record)
  identical(new$trace, record$trace) && identical(new$x, record$x)
}

# Run the replication of a record (its problem, policy and replication
# number, on its own random stream as in the full run), for at most
# `max_evaluations` evaluations after the initial design (the recipe's
# when NULL): the new record.
study_run_cell <- function(recipe, record,
                           max_evaluations = recipe$max_evaluations) {
  k <- record$rep
  args <- list(study_eval(recipe$problems)[record$problem],
               study_eval(recipe$policies)[record$policy],
               seed = recipe$seed, n_init = recipe$n_init,
               max_evaluations = max_evaluations, gp_args = recipe$model,
               progress = FALSE)
  args <- c(args, study_budget_args(recipe))
  # (builds before asynchronous runs have no virtual_workers, builds
  # before rep_ids run replications 1 to k for reps = k: a build that made
  # parts before fingerprints were recorded runs k and k + 1 to fingerprint
  # them)
  if (!is.null(recipe$virtual_workers)) {
    args$virtual_workers <- recipe$virtual_workers
  }
  if ("rep_ids" %in% names(formals(bo_benchmark))) {
    args$rep_ids <- k
  } else {
    args$reps <- if (k == 1L) 1L else c(k, k + 1L)
  }
  bm <- do.call(bo_benchmark, args)
  bm$records[[which(vapply(bm$records, `[[`, 0L, "rep") == k)[1L]]]
}

# Behaviour fingerprints (see "Builds" above).
#
# The number of steps after the initial design of a cell's run.
study_fingerprint_steps <- 2L

# Small problems of each kind on which a policy runs to the end of its
# budget, in seconds: a known and a measured cost on a box, a finite set
# with a prior, control sets, information sources, a typed space.
study_canonical_problems <- function(kind) {
  switch(kind,
    bo_problem_box = list(
      known = test_problem("branin", cost_family = "linear", budget = 30),
      measured = test_problem("dropwave", seed = 3, budget = 5)),
    bo_problem_finite = list(finite = local({
      cand <- as.matrix(expand.grid(seq(0, 1, length.out = 6),
                                    seq(0, 1, length.out = 5)))
      K <- exp(-as.matrix(stats::dist(cand))^2 / (2 * 0.3^2)) +
        diag(1e-8, 30L)
      bo_problem(function(x) sin(3 * x[1]) + cos(2 * x[2]),
                 candidates = cand, cost = function(x) 1 + x[1], budget = 6,
                 prior = list(mean = rep(0, 30L), cov = K), noise = 1e-6)
    })),
    bo_problem_cvs = list(cvs = test_problem_cvs(
      "gp_sample", cost_set = "moderate", seed = 2, budget = 2)),
    bo_problem_miso = list(miso = test_problem_miso("rosenbrock", budget = 8,
                                                    seed = 2)),
    bo_problem_typed = list(typed = bo_problem(
      function(p) -(p$n - 2)^2 - (p$rule == "b") + sin(3 * p$x),
      space = bo_space(n = param_int(1, 4), rule = param_cat(c("a", "b")),
                       x = param_num(-1, 1)),
      cost = function(p) 0.5 + p$n / 4, budget = 5)),
    stop("no canonical problem of kind ", kind))
}

# The kind of a problem (its variant's class), built for replication 1
# when it is a function of the replication.
study_problem_kind <- function(problem) {
  if (!inherits(problem, "bo_problem")) problem <- problem(1L)
  kinds <- c("bo_problem_cvs", "bo_problem_miso", "bo_problem_typed",
             "bo_problem_finite", "bo_problem_box")
  kinds[inherits(problem, kinds, which = TRUE) > 0L][1L]
}

# MD5 of an R object's serialization (format 2, so that it does not depend
# on the session's native encoding).
study_digest <- function(x) {
  f <- tempfile()
  on.exit(unlink(f))
  writeBin(serialize(x, NULL, version = 2L), f)
  unname(tools::md5sum(f))
}

# What a fingerprint digests of a record: everything but its run time.
study_record_behaviour <- function(record) {
  record[setdiff(names(record), "seconds")]
}

# The behaviour fingerprint of a part (its recipe and benchmark) by the
# installed build: a named character vector of digests, `cell:<problem>/
# <policy>` for each cell and `policy:<policy>` for each policy. `memo`, an
# environment, keeps the policies' runs on canonical problems within a
# session (the same policy in many parts is run once).
study_fingerprint <- function(part, memo = new.env()) {
  # a recipe written with the argument names of its time runs as it ran
  withCallingHandlers(study_fingerprint_runs(part, memo),
                      costbo_warning_deprecated = function(w) {
                        invokeRestart("muffleWarning")
                      })
}

study_fingerprint_runs <- function(part, memo) {
  recipe <- part$recipe
  probs <- study_eval(recipe$problems)
  pols <- study_eval(recipe$policies)
  recs <- part$benchmark$records
  first <- min(vapply(recs, `[[`, 0L, "rep"))
  cells <- character()
  for (rec in recs) {
    if (rec$rep != first) next
    # the cell's first replication, as far as the fingerprint's steps go,
    # with the costs that replication measured (a problem measuring its
    # costs, e.g. a training time, replays them at the same points)
    old <- options(costbo.study.replay = rec)
    new <- study_run_cell(recipe, rec, max_evaluations = study_fingerprint_steps)
    options(old)
    cells[paste0("cell:", rec$problem, "/", rec$policy)] <-
      study_digest(study_record_behaviour(new))
  }
  kinds <- unique(vapply(probs, study_problem_kind, ""))
  policies <- character()
  for (nm in names(pols)) {
    key <- study_digest(list(pols[[nm]], kinds, recipe$virtual_workers))
    if (is.null(memo[[key]])) {
      args <- c(list(do.call(c, lapply(kinds, study_canonical_problems)),
                     pols[nm], reps = 1L, n_init = 4L, seed = 11L,
                     progress = FALSE), study_budget_args(recipe))
      if (!is.null(recipe$virtual_workers)) {
        args$virtual_workers <- recipe$virtual_workers
      }
      bm <- do.call(bo_benchmark, args)
      memo[[key]] <- study_digest(lapply(bm$records, study_record_behaviour))
    }
    policies[paste0("policy:", nm)] <- memo[[key]]
  }
  c(cells[order(names(cells))], policies[order(names(policies))])
}

# The certificate of a part file (see "Builds" above), or NULL: it holds for
# the part file it was made for only.
study_certificate <- function(file) {
  cert_file <- sub("[.]rds$", ".reproduced.rds", file)
  if (!file.exists(cert_file)) return(NULL)
  cert <- readRDS(cert_file)
  if (identical(cert$part_md5, unname(tools::md5sum(file)))) cert
}

# A part file made by another build is usable when the installed build's
# behaviour fingerprint for it equals the one its maker (or a build that
# reproduced it) recorded, or else when the installed build reproduces its
# cheapest cell; the certificate (the certifying build, how, the date, the
# fingerprint, the cell replayed and the MD5 of the part file) is written
# next to the part, in <part>.reproduced.rds, so that the check runs once
# per build and the large part file is never rewritten. Stop when the part
# is not reproduced.
study_certify <- function(part, name, file, build = costbo_build(),
                          memo = new.env()) {
  cert_file <- sub("[.]rds$", ".reproduced.rds", file)
  md5 <- unname(tools::md5sum(file))
  cert <- study_certificate(file)
  # a certificate next to the part replaces one kept inside the part file
  # (parts certified before certificates were written next to them)
  if (!is.null(cert)) part$reproduced_by <- cert
  # records changed after the part was made are refused, whoever made it
  recorded <- if (!is.null(cert$data_digest)) cert$data_digest else
    part$data_digest
  if (!is.null(recorded) &&
      !identical(study_digest(part$benchmark$records), recorded)) {
    stop(sprintf(paste("part %s (%s): its records differ from those it was",
                       "made with: delete it to rerun it"), name, file))
  }
  if (identical(part$build$source_hash, build$source_hash) ||
      identical(part$reproduced_by$source_hash, build$source_hash)) {
    return(part)
  }
  # the fingerprint recorded by a build that made or reproduced the part
  known <- if (!is.null(cert$fingerprint)) cert$fingerprint else
    part$fingerprint
  now <- study_fingerprint(part, memo)
  how <- "fingerprint"
  rec <- NULL
  if (!identical(known, now)) {
    changed <- if (is.null(known)) "none recorded" else
      paste(union(setdiff(names(now), names(known)),
                  names(now)[names(now) %in% names(known) &
                               now != known[names(now)]]), collapse = ", ")
    rec <- study_cheapest(part$benchmark)
    if (is.null(rec) || !study_reproduces(part$recipe, rec)) {
      stop(sprintf(paste("part %s (%s) was made by another build of costbo",
                         "(sources %s, installed %s), its behaviour",
                         "fingerprint changed (%s) and this build does not",
                         "reproduce it: delete it to rerun it"),
                   name, file, part$build$source_hash, build$source_hash,
                   changed))
    }
    how <- "replay"
  }
  part$reproduced_by <- c(build, list(
    date = format(Sys.time(), tz = "UTC", usetz = TRUE), how = how,
    fingerprint = now, data_digest = study_digest(part$benchmark$records),
    problem = rec$problem, policy = rec$policy, rep = rec$rep,
    part_md5 = md5))
  saveRDS(part$reproduced_by, cert_file)
  message(sprintf("part %s: made by build %s, %s by this build", name,
                  substr(part$build$source_hash, 1L, 8L),
                  if (how == "replay") "reproduced" else
                    "certified by an unchanged fingerprint"))
  part
}

# Record the installed build's fingerprint of parts that it made or
# reproduced (a certificate for it, or made by it) but that have none: the
# parts made before fingerprints were recorded. Run once with the build
# that certified them; later builds then compare fingerprints.
study_record_fingerprints <- function(parts, dir, build = costbo_build()) {
  memo <- new.env()
  for (nm in names(parts)) {
    f <- study_file(dir, nm)
    if (!file.exists(f)) next
    part <- readRDS(f)
    cert <- study_certificate(f)
    mine <- identical(part$build$source_hash, build$source_hash) ||
      identical(cert$source_hash, build$source_hash)
    if (!mine || !is.null(cert$fingerprint) ||
        (is.null(cert) && !is.null(part$fingerprint))) next
    if (is.null(cert)) {
      cert <- c(build, list(date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                            how = "made", part_md5 = unname(tools::md5sum(f))))
    }
    cert$fingerprint <- study_fingerprint(part, memo)
    cert$data_digest <- study_digest(part$benchmark$records)
    saveRDS(cert, sub("[.]rds$", ".reproduced.rds", f))
    message(sprintf("part %s: fingerprint recorded by build %s", nm,
                    substr(build$source_hash, 1L, 8L)))
  }
  invisible(TRUE)
}

# Run the named parts that are not yet on disk (a part on disk made by
# another build is certified, see study_certify()).
study_run_parts <- function(parts, names, dir, backend = "sequential",
                            processes = NULL, progress = TRUE) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  build <- costbo_build()
  unknown <- setdiff(names, base::names(parts))
  if (length(unknown)) stop("unknown parts: ", paste(unknown, collapse = ", "))
  memo <- new.env()
  for (nm in names) {
    f <- study_file(dir, nm)
    if (file.exists(f)) {
      old <- readRDS(f)
      if (study_recipe_same(old$recipe, parts[[nm]])) {
        study_certify(old, nm, f, build, memo)
        message(sprintf("part %s: done already (%s)", nm, f))
        next
      }
      # made from another recipe: run again, and its certificate goes
      unlink(sub("[.]rds$", ".reproduced.rds", f))
      message(sprintf("part %s: its recipe changed, running again", nm))
    } else {
      message(sprintf("part %s: running", nm))
    }
    # wall seconds, and CPU seconds of this process and its finished
    # children (user + system: the core-seconds on a shared machine)
    cpu <- function() sum(proc.time()[c(1L, 2L, 4L, 5L)], na.rm = TRUE)
    t0 <- proc.time()[["elapsed"]]
    c0 <- cpu()
    bm <- study_run(parts[[nm]], backend = backend, processes = processes,
                    progress = progress)
    seconds <- proc.time()[["elapsed"]] - t0
    cpu_seconds <- cpu() - c0
    fingerprint <- study_fingerprint(list(benchmark = bm,
                                          recipe = parts[[nm]]), memo)
    saveRDS(list(benchmark = bm, recipe = parts[[nm]], build = build,
                 fingerprint = fingerprint, data_digest = study_digest(bm$records),
                 command = paste(c("Rscript", sub("^--file=", "", commandArgs(trailingOnly = FALSE)[
                   grepl("^--file=", commandArgs(trailingOnly = FALSE))]),
                   commandArgs(trailingOnly = TRUE)), collapse = " "),
                 seconds = seconds, cpu_seconds = cpu_seconds,
                 date = format(Sys.time(), tz = "UTC", usetz = TRUE)),
            f, compress = "xz")
    message(sprintf("part %s: written to %s", nm, f))
  }
  invisible(TRUE)
}

# Read the parts (all must exist; those of other builds are certified), join
# their benchmarks, and describe the provenance: recipes, commands, the build
# that made each part and the one that joined them, core-seconds, and the
# replay cell (the first replication of the cell whose first replication was
# fastest).
study_join <- function(parts, dir) {
  build <- costbo_build()
  files <- study_file(dir, base::names(parts))
  missing <- base::names(parts)[!file.exists(files)]
  if (length(missing)) stop("parts not run yet: ", paste(missing, collapse = ", "))
  changed <- base::names(parts)[!vapply(seq_along(files), function(i) {
    study_recipe_same(readRDS(files[i])$recipe, parts[[i]])
  }, NA)]
  if (length(changed)) {
    stop("parts made from another recipe than the script's, to run again: ",
         paste(changed, collapse = ", "))
  }
  memo <- new.env()
  got <- Map(function(f, nm) study_certify(readRDS(f), nm, f, build, memo),
             files, base::names(parts))
  base::names(got) <- base::names(parts)
  # a certified part counts as made by this build for c()
  bms <- lapply(got, function(p) {
    p$benchmark$provenance$source_hash <- build$source_hash
    p$benchmark
  })
  joined <- do.call(c, unname(bms))
  joined$provenance$source_hash <- build$source_hash
  joined$provenance$costbo <- build$costbo
  cheap <- lapply(got, function(p) study_cheapest(p$benchmark))
  ok <- !vapply(cheap, is.null, NA)
  k <- which(ok)[which.min(vapply(cheap[ok], `[[`, 0, "seconds"))]
  list(benchmark = joined,
       provenance = list(
         build = build,
         parts = data.frame(
           part = base::names(got),
           source_hash = vapply(got, function(p) p$build$source_hash, ""),
           reproduced = vapply(got, function(p) {
             identical(p$build$source_hash, build$source_hash) ||
               identical(p$reproduced_by$source_hash, build$source_hash)
           }, NA),
           seconds = vapply(got, `[[`, 0, "seconds"),
           date = vapply(got, `[[`, "", "date"),
           row.names = NULL, stringsAsFactors = FALSE),
         recipes = lapply(got, `[[`, "recipe"),
         commands = vapply(got, `[[`, "", "command"),
         dates = vapply(got, `[[`, "", "date"),
         core_seconds = sum(vapply(bms, function(b) {
           sum(b$replications$seconds, na.rm = TRUE)
         }, 0)),
         replay = list(part = base::names(got)[k], problem = cheap[[k]]$problem,
                       policy = cheap[[k]]$policy, recipe = got[[k]]$recipe,
                       record = cheap[[k]])))
}

# Re-run the replay cell of a cache with the installed build; TRUE when the
# record is reproduced bit for bit (the trace and the points).
study_replay <- function(provenance) {
  study_reproduces(provenance$replay$recipe, provenance$replay$record)
}

# What a vignette needs of a joined benchmark, small enough for the package
# (the part files keep everything):
# * final: the measures of every replication at its problem's budget (the
#   last point of as.data.frame()'s cost grid, as bo_compare() and
#   bo_claim() read them), with the replication's status, evaluations,
#   spend and run time;
# * curves: per problem, policy and cost on a grid of `n_grid` points, the
#   mean log10 regret (or best value when the optimum is unknown) with its
#   95% t-interval, and the median and quartiles.
study_slim <- function(bm, n_grid = 51L) {
  df <- as.data.frame(bm)
  known <- any(!is.na(df$regret))
  measure <- if (known) "log10_regret" else "best_value"
  last <- df$cost == stats::ave(df$cost, df$problem, FUN = max)
  keep <- c("problem", "policy", "rep")
  final <- merge(df[last, c(keep, "cost", "best_value", "regret", "log10_regret")],
                 bm$replications[, c(keep, "status", "n_evaluations", "spent",
                                     "seconds", "stop_reason")],
                 by = keep, sort = FALSE)
  final <- final[order(final$problem, final$policy, final$rep), ]
  rownames(final) <- NULL
  # a coarser cost grid: every k-th point of the benchmark's grid
  grid <- sort(unique(df$cost[df$problem == df$problem[1L]]))
  k <- max(1L, floor((length(grid) - 1L) / (n_grid - 1L)))
  step <- stats::ave(df$cost, df$problem, FUN = function(g) {
    match(g, sort(unique(g))) - 1L
  })
  df <- df[step %% k == 0L | last, , drop = FALSE]
  cells <- split(df[[measure]], list(df$problem, df$policy, df$cost),
                 drop = TRUE)
  keys <- unique(df[, c("problem", "policy", "cost")])
  curves <- do.call(rbind, lapply(seq_len(nrow(keys)), function(i) {
    v <- cells[[paste(keys$problem[i], keys$policy[i], keys$cost[i],
                      sep = ".")]]
    v <- v[is.finite(v)]
    n <- length(v)
    h <- if (n > 1L) stats::qt(0.975, n - 1L) * stats::sd(v) / sqrt(n) else NA
    q <- if (n) stats::quantile(v, c(0.25, 0.5, 0.75), names = FALSE) else
      rep(NA_real_, 3L)
    data.frame(n = n, mean = if (n) mean(v) else NA_real_,
               lower = mean(v) - h, upper = mean(v) + h, q25 = q[1L],
               median = q[2L], q75 = q[3L])
  }))
  curves <- cbind(keys, measure = measure, curves)
  curves <- curves[order(curves$problem, curves$policy, curves$cost), ]
  rownames(curves) <- NULL
  list(final = final, curves = curves)
}

# Is the recipe a part was made from (`saved`) the script's recipe for it
# now (`current`)? Recipes are compared with the defaults of fields that
# older recipes lack filled in (the budget accounting, the initial design:
# see study_budget_args()), code given as a string parsed, calls with
# their arguments named in full by their current names, and numbers by
# value, so that a part made before a field was recorded is not taken for
# another recipe; a part made from
# another recipe (another problem, policy, protocol or replication) is
# refused by join and listed as to run again.
# A call of costbo functions with every argument by its full current name
# (match.call(), and the names of renamed arguments, costbo's
# renamed_args, replaced by their new ones), without source references,
# recursively.
study_call_normal <- function(x) {
  if (!is.call(x)) return(x)
  # (source references are where the code was written, not what it does)
  for (a in c("srcref", "srcfile", "wholeSrcref")) attr(x, a) <- NULL
  if (identical(x[[1L]], as.name("function")) && length(x) == 4L) {
    x[[4L]] <- NULL
  }
  x[] <- lapply(as.list(x), study_call_normal)
  f <- x[[1L]]
  if (!is.name(f)) return(x)
  ns <- asNamespace("costbo")
  fn <- get0(as.character(f), envir = ns, mode = "function", inherits = FALSE)
  if (is.null(fn) || is.primitive(fn)) return(x)
  x <- tryCatch(match.call(fn, x), error = function(e) x)
  if (is.null(base::names(x))) return(x)
  renamed <- get("renamed_args", envir = ns)
  formal <- base::names(formals(fn))
  nms <- base::names(x)
  for (new in base::names(renamed)) {
    old <- renamed[[new]]
    if (new %in% formal && old %in% formal) nms[nms == old] <- new
  }
  base::names(x) <- nms
  # in the order of the formals, as match.call() gives them
  args <- as.list(x)[-1L]
  args <- args[order(match(base::names(args), formal))]
  as.call(c(x[[1L]], args))
}

study_recipe_same <- function(saved, current) {
  fill <- function(r) {
    def <- list(n_init = NULL, model = list(), max_evaluations = NULL,
                seed = 1L, virtual_workers = NULL, budget_rule = "stop",
                charge_initial = FALSE, design = "sobol",
                design_sources = "all")
    for (nm in base::names(def)) if (is.null(r[[nm]])) r[nm] <- list(def[[nm]])
    # (recipes were strings of R code before they were quoted calls)
    for (nm in c("problems", "policies")) {
      if (is.character(r[[nm]])) {
        r[[nm]] <- str2lang(paste(r[[nm]], collapse = "\n"))
      }
      r[[nm]] <- study_call_normal(r[[nm]])
    }
    for (nm in c("reps", "n_init", "max_evaluations", "seed",
                 "virtual_workers")) {
      if (is.numeric(r[[nm]])) r[[nm]] <- as.double(r[[nm]])
    }
    r[order(base::names(r))]
  }
  identical(fill(saved), fill(current))
}

# The parts of a study as the part files tell them: status ("to run";
# "made" by the installed build; "certified" for it by a fingerprint or a
# replay; "to certify", made by another build and not yet certified for
# this one), the build that made the part (its source hash), the date,
# the seconds it took (wall; and CPU, for parts that recorded it) and the
# command that ran it.
study_list <- function(parts, dir, build = costbo_build()) {
  rows <- lapply(names(parts), function(nm) {
    f <- study_file(dir, nm)
    if (!file.exists(f)) {
      return(data.frame(part = nm, status = "to run", build = "", date = "",
                        seconds = NA_real_, cpu_seconds = NA_real_,
                        command = ""))
    }
    p <- readRDS(f)
    cert <- study_certificate(f)
    status <- if (!study_recipe_same(p$recipe, parts[[nm]])) {
      "to run (recipe changed)"
    } else if (identical(p$build$source_hash, build$source_hash)) {
      "made"
    } else if (identical(cert$source_hash, build$source_hash)) {
      paste("certified", if (identical(cert$how, "fingerprint")) {
        "(fingerprint)"
      } else "(replay)")
    } else "to certify"
    data.frame(part = nm, status = status,
               build = substr(p$build$source_hash, 1L, 8L),
               date = if (is.null(p$date)) "" else p$date,
               seconds = round(p$seconds),
               cpu_seconds = if (is.null(p$cpu_seconds)) NA_real_ else
                 round(p$cpu_seconds),
               command = if (is.null(p$command)) "" else p$command)
  })
  do.call(rbind, rows)
}

# Which parts the installed build would accept without a replay: for each
# part file, its behaviour fingerprint by this build against the one
# recorded with the part ("same", "changed: <the cells and policies whose
# digests differ>", or "none recorded"), computing fingerprints only (no
# certificate is written, nothing is replayed). After a change that may
# alter runs, the parts listed as changed are the ones to re-run.
study_check <- function(parts, dir, build = costbo_build()) {
  memo <- new.env()
  rows <- lapply(names(parts), function(nm) {
    f <- study_file(dir, nm)
    if (!file.exists(f)) return(data.frame(part = nm, fingerprint = "to run"))
    part <- readRDS(f)
    cert <- study_certificate(f)
    known <- if (!is.null(cert$fingerprint)) cert$fingerprint else
      part$fingerprint
    if (is.null(known)) {
      return(data.frame(part = nm, fingerprint = "none recorded"))
    }
    now <- study_fingerprint(part, memo)
    diff <- union(setdiff(names(now), names(known)),
                  names(now)[names(now) %in% names(known) &
                               now != known[names(now)]])
    data.frame(part = nm, fingerprint = if (length(diff)) {
      paste("changed:", paste(diff, collapse = ", "))
    } else "same")
  })
  do.call(rbind, rows)
}

# The command line of a study script: `list` (each part's status, build,
# date, seconds and command, from the part files), `run <part> ...
# [--backend b --processes p]`, `join`, `check` (which parts' behaviour
# fingerprints the installed build changes: study_check()) or
# `fingerprint` (record the installed build's fingerprints of the parts it
# made or reproduced, for parts made before fingerprints were recorded).
# `write(j)` turns the join (study_join()) into the
# cache: it returns the list to save, written to inst/extdata/<study>.rds
# (by default study_slim()'s final measures and curves, and the provenance).
study_main <- function(parts, study, write = function(j) {
  c(study_slim(j$benchmark), list(provenance = j$provenance))
}, args = commandArgs(trailingOnly = TRUE)) {
  dir <- file.path("studies", study)
  cmd <- if (length(args)) args[1L] else "list"
  opt <- function(name, default) {
    k <- match(paste0("--", name), args)
    if (is.na(k)) default else args[k + 1L]
  }
  if (cmd == "list") {
    print(study_list(parts, dir), right = FALSE, row.names = FALSE)
  } else if (cmd == "fingerprint") {
    study_record_fingerprints(parts, dir)
  } else if (cmd == "check") {
    print(study_check(parts, dir), right = FALSE, row.names = FALSE)
  } else if (cmd == "run") {
    rest <- args[-1L]
    flag <- startsWith(rest, "--")
    which_parts <- rest[!flag & !(seq_along(rest) %in% (which(flag) + 1L))]
    # (--workers: the former name of --processes)
    processes <- opt("processes", opt("workers", NA))
    study_run_parts(parts, which_parts, dir,
                    backend = opt("backend", "sequential"),
                    processes = if (is.na(processes)) NULL else
                      as.integer(processes))
  } else if (cmd == "join") {
    # `join --partial <file>`: the parts done so far (the cache lists them in
    # provenance$parts, and a vignette reads what it holds)
    partial <- opt("partial", NA)
    if (!is.na(partial)) {
      parts <- parts[file.exists(study_file(dir, names(parts)))]
      if (!length(parts)) stop("no part of ", study, " is done yet")
    }
    j <- study_join(parts, dir)
    out <- if (is.na(partial)) {
      file.path("inst", "extdata", paste0(study, ".rds"))
    } else partial
    saveRDS(write(j), out, compress = "xz")
    message(sprintf("%s: %d parts, %.1f core-hours", out, length(parts),
                    j$provenance$core_seconds / 3600))
  } else {
    stop(sprintf(paste("usage: %s.R list | run <part> ... | join [--partial",
                       "<file>] | check | fingerprint"), study))
  }
  # Rscript reads a script as it evaluates it, so a script whose file was
  # edited while a part ran would be read on at its old offset, in the
  # middle of other text: a script that calls this function last ends here
  if (!interactive() && sys.nframe() == 1L) quit(save = "no")
  invisible(TRUE)
}
