# Every headline claim of the five papers with its verdict, as the
# vignettes compute them from the caches in inst/extdata (paper 000's
# RF-Boston study is in vignette("costbo")): one row per
# comparison (claim, policy, baseline, problems, pairs, paired difference
# with its 95% interval, verdict, pairs needed when inconclusive), in two
# tables: the comparisons the papers make, and those beyond them (other
# horizons, problems or baselines, where a vignette has them).
#
# Usage, from the package's source directory with costbo and knitr
# installed:
#   Rscript inst/scripts/verdicts.R [--markdown]
# Each paper vignette's R code (knitr::purl()) is run in its own
# environment and its table of verdicts (the one its verdict section
# prints) is collected, so these rows are the vignettes' own, from the same
# numbers. Takes a few seconds.

args <- commandArgs(trailingOnly = TRUE)
markdown <- "--markdown" %in% args
if (!requireNamespace("knitr", quietly = TRUE)) {
  stop("verdicts.R needs the knitr package", call. = FALSE)
}
suppressMessages(library(costbo))

# paper, vignette and the vignette's table of that paper's verdicts
papers <- data.frame(
  paper = c("000", "000", "001", "002", "003", "004"),
  vignette = c("budgeted-lookahead", "costbo", "rollout", "pandora",
               "control-sets", "rollout"),
  table = c("claims", "rf_cl", "cl001", "claims", "claims", "cl004"),
  # comparisons the paper does not make (other horizons, problems,
  # baselines), with their own verdicts; NA: none
  beyond = c(NA, NA, "bp001", NA, NA, "bp004"))

run_vignette <- function(name) {
  rmd <- file.path("vignettes", paste0(name, ".Rmd"))
  if (!file.exists(rmd)) {
    stop("run verdicts.R from the package's source directory (no ", rmd, ")",
         call. = FALSE)
  }
  code <- tempfile(fileext = ".R")
  on.exit(unlink(code))
  # purl() tries the chunk options, some of which name objects of the
  # vignette's code, and try() prints their errors: keep them out of the
  # report (the code itself runs below)
  msgs <- textConnection(NULL, "w")
  old <- options(try.outFile = msgs)
  knitr::purl(rmd, output = code, quiet = TRUE, documentation = 0L)
  options(old)
  close(msgs)
  env <- new.env(parent = globalenv())
  # the vignettes print tables and figures: keep neither
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  utils::capture.output(sys.source(code, envir = env))
  env
}

columns <- function(cl) {
  as.data.frame(cl)[, c("claim", "policy", "baseline", "measure", "problems",
                        "n", "difference", "lower", "upper", "verdict",
                        "n_needed")]
}

envs <- lapply(stats::setNames(nm = unique(papers$vignette)), run_vignette)
collect <- function(which) {
  rows <- do.call(rbind, lapply(seq_len(nrow(papers)), function(i) {
    nm <- papers[[which]][i]
    if (is.na(nm)) return(NULL)
    cl <- get(nm, envir = envs[[papers$vignette[i]]])
    # a table with no comparison yet (its policies not in the cache)
    if (!NROW(cl)) return(NULL)
    cbind(paper = papers$paper[i], vignette = papers$vignette[i], columns(cl))
  }))
  rownames(rows) <- NULL
  rows
}

f <- function(v) formatC(signif(v, 2), format = "g", flag = "")
report <- function(rows, title) {
  out <- data.frame(
    paper = rows$paper, claim = rows$claim, policy = rows$policy,
    against = rows$baseline, problems = rows$problems, measure = rows$measure,
    pairs = rows$n, difference = f(rows$difference),
    interval = sprintf("[%s, %s]", f(rows$lower), f(rows$upper)),
    verdict = rows$verdict,
    needed = ifelse(is.na(rows$n_needed), "",
                    format(rows$n_needed, scientific = FALSE, trim = TRUE)))
  cat(title, "\n\n", sep = "")
  if (markdown) {
    esc <- function(s) gsub("|", "\\|", s, fixed = TRUE)
    cat("| ", paste(names(out), collapse = " | "), " |\n", sep = "")
    cat("|", paste(rep("---", ncol(out)), collapse = "|"), "|\n", sep = "")
    for (i in seq_len(nrow(out))) {
      cat("| ", paste(esc(unlist(out[i, ])), collapse = " | "), " |\n",
          sep = "")
    }
  } else {
    old <- options(width = 250)
    print(out, row.names = FALSE, right = FALSE)
    options(old)
  }
  tab <- table(factor(rows$paper, unique(papers$paper)),
               factor(rows$verdict, c("reproduced", "refuted", "inconclusive")))
  cat("\nVerdicts per paper:\n")
  print(tab)
  cat(sprintf("\n%d comparisons: %d reproduced, %d refuted, %d inconclusive\n\n",
              nrow(rows), sum(rows$verdict == "reproduced"),
              sum(rows$verdict == "refuted"),
              sum(rows$verdict == "inconclusive")))
}

report(collect("table"), "The papers' claims, as the papers make them")
report(collect("beyond"), "Beyond the papers: the same statements at other settings")
