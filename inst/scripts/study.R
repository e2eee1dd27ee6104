# Parts, joins and provenance of the studies in inst/scripts, sourced by
# each study script.
#
# A study is a list of parts. A part is one bo_benchmark() call given as a
# recipe: the R code (text) that builds its problems and its policies, and
# its settings (replications, initial design, models). Each part is run on
# its own and written to <dir>/<part>.rds as soon as it is done, with the
# build of costbo that made it (costbo_build()) and the command line, so a
# study can be spread over sessions and machines and committed part by part.
# A part file made by another build is never reused: the script stops and
# says so. The join reads all parts (c() refuses benchmarks of different
# builds) and the script writes the cache for the vignette in inst/extdata,
# with the recipes and, for the provenance test of the package
# (tests/testthat/test-studies.R), the first replication of the study's
# cheapest cell together with its recipe: re-running that recipe with the
# installed build must reproduce the cached record bit for bit.

# A recipe. `problems` and `policies` are R code (strings) evaluated with
# costbo attached; they must give named lists.
study_recipe <- function(problems, policies, reps, n_init = NULL,
                         model = list(), max_evaluations = NULL, seed = 1L) {
  list(problems = problems, policies = policies, reps = reps, n_init = n_init,
       model = model, max_evaluations = max_evaluations, seed = seed)
}

study_eval <- function(code) {
  eval(parse(text = code, keep.source = FALSE), envir = new.env(parent = globalenv()))
}

# Run one recipe (reps may be replaced, e.g. by 1 for a replay).
study_run <- function(recipe, reps = recipe$reps, backend = "sequential",
                      workers = NULL, progress = FALSE) {
  bo_benchmark(study_eval(recipe$problems), study_eval(recipe$policies),
               reps = reps, backend = backend, workers = workers,
               seed = recipe$seed, n_init = recipe$n_init,
               max_evaluations = recipe$max_evaluations, model = recipe$model,
               progress = progress)
}

study_file <- function(dir, name) file.path(dir, paste0(name, ".rds"))

# Run the named parts that are not yet on disk; stop on a part made by
# another build.
study_run_parts <- function(parts, names, dir, backend = "sequential",
                            workers = NULL, progress = TRUE) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  build <- costbo_build()
  unknown <- setdiff(names, base::names(parts))
  if (length(unknown)) stop("unknown parts: ", paste(unknown, collapse = ", "))
  for (nm in names) {
    f <- study_file(dir, nm)
    if (file.exists(f)) {
      old <- readRDS(f)
      if (!identical(old$build$source_hash, build$source_hash)) {
        stop(sprintf(paste("part %s (%s) was made by another build of costbo",
                           "(sources %s, installed %s): delete it to rerun it"),
                     nm, f, old$build$source_hash, build$source_hash))
      }
      message(sprintf("part %s: done already (%s)", nm, f))
      next
    }
    message(sprintf("part %s: running", nm))
    t0 <- proc.time()[["elapsed"]]
    bm <- study_run(parts[[nm]], backend = backend, workers = workers,
                    progress = progress)
    saveRDS(list(benchmark = bm, recipe = parts[[nm]], build = build,
                 command = paste(c("Rscript", sub("^--file=", "", commandArgs(trailingOnly = FALSE)[
                   grepl("^--file=", commandArgs(trailingOnly = FALSE))]),
                   commandArgs(trailingOnly = TRUE)), collapse = " "),
                 seconds = proc.time()[["elapsed"]] - t0,
                 date = format(Sys.time(), tz = "UTC", usetz = TRUE)),
            f, compress = "xz")
    message(sprintf("part %s: written to %s", nm, f))
  }
  invisible(TRUE)
}

# Read the parts (all must exist), join their benchmarks, and describe the
# provenance: recipes, commands, build, core-seconds, and the replay cell
# (the first replication of the cell whose first replication was fastest).
study_join <- function(parts, dir) {
  files <- study_file(dir, base::names(parts))
  missing <- base::names(parts)[!file.exists(files)]
  if (length(missing)) stop("parts not run yet: ", paste(missing, collapse = ", "))
  got <- lapply(files, readRDS)
  base::names(got) <- base::names(parts)
  bms <- lapply(got, `[[`, "benchmark")
  joined <- do.call(c, unname(bms))
  cells <- do.call(rbind, lapply(base::names(got), function(nm) {
    recs <- Filter(function(r) r$rep == 1L && r$status == "ok",
                   got[[nm]]$benchmark$records)
    if (!length(recs)) return(NULL)
    data.frame(part = nm, problem = vapply(recs, `[[`, "", "problem"),
               policy = vapply(recs, `[[`, "", "policy"),
               seconds = vapply(recs, `[[`, 0, "seconds"),
               stringsAsFactors = FALSE)
  }))
  cheap <- cells[which.min(cells$seconds), ]
  rec <- Filter(function(r) r$rep == 1L && r$problem == cheap$problem &&
                  r$policy == cheap$policy,
                got[[cheap$part]]$benchmark$records)[[1L]]
  list(benchmark = joined,
       provenance = list(
         build = got[[1L]]$build,
         recipes = lapply(got, `[[`, "recipe"),
         commands = vapply(got, `[[`, "", "command"),
         dates = vapply(got, `[[`, "", "date"),
         core_seconds = sum(vapply(bms, function(b) {
           sum(b$replications$seconds, na.rm = TRUE)
         }, 0)),
         replay = list(part = cheap$part, problem = cheap$problem,
                       policy = cheap$policy, recipe = got[[cheap$part]]$recipe,
                       record = rec)))
}

# Re-run the replay cell of a cache with the installed build; TRUE when the
# record is reproduced bit for bit (the trace and the points).
study_replay <- function(provenance) {
  rp <- provenance$replay
  r <- rp$recipe
  probs <- study_eval(r$problems)[rp$problem]
  pols <- study_eval(r$policies)[rp$policy]
  bm <- bo_benchmark(probs, pols, reps = 1L, seed = r$seed, n_init = r$n_init,
                     max_evaluations = r$max_evaluations, model = r$model,
                     progress = FALSE)
  new <- bm$records[[1L]]
  identical(new$trace, rp$record$trace) && identical(new$x, rp$record$x)
}

# The command line of a study script: `list`, `run <part> ... [--backend b
# --workers w]` or `join`. `write(j)` turns the join (study_join()) into the
# cache: it returns the list to save, written to inst/extdata/<study>.rds.
study_main <- function(parts, study, write = function(j) {
  list(benchmark = j$benchmark, provenance = j$provenance)
}, args = commandArgs(trailingOnly = TRUE)) {
  dir <- file.path("studies", study)
  cmd <- if (length(args)) args[1L] else "list"
  opt <- function(name, default) {
    k <- match(paste0("--", name), args)
    if (is.na(k)) default else args[k + 1L]
  }
  if (cmd == "list") {
    print(data.frame(part = names(parts),
                     done = file.exists(study_file(dir, names(parts)))))
  } else if (cmd == "run") {
    rest <- args[-1L]
    flag <- startsWith(rest, "--")
    which_parts <- rest[!flag & !(seq_along(rest) %in% (which(flag) + 1L))]
    workers <- opt("workers", NA)
    study_run_parts(parts, which_parts, dir,
                    backend = opt("backend", "sequential"),
                    workers = if (is.na(workers)) NULL else as.integer(workers))
  } else if (cmd == "join") {
    j <- study_join(parts, dir)
    out <- file.path("inst", "extdata", paste0(study, ".rds"))
    saveRDS(write(j), out, compress = "xz")
    message(sprintf("%s: %d parts, %.1f core-hours", out, length(parts),
                    j$provenance$core_seconds / 3600))
  } else {
    stop(sprintf("usage: %s.R list | run <part> ... | join", study))
  }
  invisible(TRUE)
}
