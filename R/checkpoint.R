# Checkpoints: a run saved after every evaluation, in a file whose damage
# is detected, so that bo_resume() continues it exactly.

# Save the run after an evaluation. A checkpoint that cannot be written
# never ends the run: the failure is recorded in the state
# (`checkpoint_error`: the number of failed writes, the last message and
# the number of evaluations then), with a warning at the first failure.
save_checkpoint <- function(state, ctl) {
  if (is.null(ctl$checkpoint)) return(state)
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    stats::runif(1)
  }
  # (the progressor reports to this session only)
  saved <- list(state = state, ctl = ctl[names(ctl) != "progressor"],
                random_seed = get(".Random.seed", envir = globalenv()))
  # write_checkpoint() turns every warning into its error
  err <- tryCatch({
    write_checkpoint(saved, ctl$checkpoint)
    NULL
  }, error = function(e) conditionMessage(e))
  if (!is.null(err)) {
    first <- is.null(state$checkpoint_error)
    state$checkpoint_error <- list(
      n = if (first) 1L else state$checkpoint_error$n + 1L, message = err,
      evaluations = length(state$value))
    if (first) {
      warn_checkpoint(sprintf(paste("the checkpoint \"%s\" could not be",
                                    "written (%s); the run goes on and",
                                    "keeps its evaluations"),
                              ctl$checkpoint, err))
    }
  }
  state
}

# Checkpoint files (format version 2): a text header of four lines, the
# magic line "costbo checkpoint", "version 2", "md5 <32 hex digits>" and
# "bytes <n>", then the n bytes of the gzip-compressed serialization of
# list(state, ctl, random_seed); the MD5 sum is that of those n bytes, so
# that any changed or missing byte (a flipped bit, a truncated or
# concatenated file) is detected. Written to `path`.tmp and renamed, so a
# crash while writing leaves the previous checkpoint intact.
checkpoint_magic <- "costbo checkpoint"

checkpoint_version <- 2L

# Any warning or error while writing is an error whose message is the first
# of them, and leaves neither the temporary file nor an open connection.
# Warnings are muffled where they are signalled, never caught by an exiting
# handler: leaving file() through its "cannot open file" warning skips the
# release of its connection, which then stays half open in R's table (a
# later future call crashed; 128 such failures exhaust the table, issue 39).
write_checkpoint <- function(saved, path) {
  tmp <- paste0(path, ".tmp")
  why <- NULL
  note <- function(cnd) if (is.null(why)) why <<- conditionMessage(cnd)
  step <- function(expr) {
    tryCatch(withCallingHandlers(expr, warning = function(w) {
      note(w)
      invokeRestart("muffleWarning")
    }), error = function(e) {
      note(e)
      FALSE
    })
  }
  written <- step({
    payload <- memCompress(serialize(saved, NULL), "gzip")
    header <- sprintf("%s\nversion %d\nmd5 %s\nbytes %.0f\n",
                      checkpoint_magic, checkpoint_version, md5_raw(payload),
                      length(payload))
    write_raw(c(charToRaw(header), payload), tmp)
  })
  renamed <- isTRUE(written) && is.null(why) &&
    isTRUE(step(file.rename(tmp, path))) && is.null(why)
  if (!renamed) {
    if (file.exists(tmp) && !dir.exists(tmp)) unlink(tmp)
    stop_costbo(if (is.null(why)) {
      sprintf("cannot rename \"%s\" to \"%s\"", tmp, path)
    } else why)
  }
  invisible(path)
}

# Write bytes to a new file, closing its connection on every path; TRUE.
write_raw <- function(bytes, path) {
  con <- file(path, "wb")
  on.exit(close(con))
  writeBin(bytes, con)
  TRUE
}

# The MD5 sum of a raw vector (tools::md5sum() reads files only).
md5_raw <- function(bytes) {
  f <- tempfile("costbo-md5-")
  on.exit(unlink(f))
  writeBin(bytes, f)
  unname(tools::md5sum(f))
}

# Read and verify a checkpoint: list(state, ctl, random_seed). Any damage
# is a costbo_error_arg naming `checkpoint` and the file. Files of format
# version 1 (costbo before checksums: an RDS of list(format = "costbo
# checkpoint", ...)) cannot be verified; they are read with a warning.
read_checkpoint <- function(path, call = sys.call(-1L)) {
  bad <- function(why) {
    stop_arg("checkpoint", sprintf("an intact costbo checkpoint, but \"%s\" %s",
                                   path, why), show = FALSE, call = call)
  }
  size <- file.size(path)
  bytes <- tryCatch(readBin(path, "raw", n = size),
                    error = function(e) bad("cannot be read"))
  magic <- charToRaw(paste0(checkpoint_magic, "\n"))
  if (length(bytes) < length(magic) ||
      !identical(bytes[seq_along(magic)], magic)) {
    return(read_checkpoint_v1(path, bad))
  }
  nl <- which(bytes == as.raw(10L))
  if (length(nl) < 4L || nl[4L] > 200L) bad("has a damaged header")
  head <- as.integer(bytes[seq_len(nl[4L])])
  if (any((head < 32L | head > 126L) & head != 10L)) {
    bad("has a damaged header")
  }
  lines <- tryCatch(strsplit(rawToChar(bytes[seq_len(nl[4L] - 1L)]), "\n",
                             fixed = TRUE)[[1L]],
                    error = function(e) bad("has a damaged header"))
  field <- function(i, key, pattern) {
    v <- sub(paste0("^", key, " "), "", lines[i])
    if (!startsWith(lines[i], paste0(key, " ")) || !grepl(pattern, v)) {
      bad("has a damaged header")
    }
    v
  }
  version <- as.integer(field(2L, "version", "^[0-9]{1,4}$"))
  if (version > checkpoint_version) {
    bad(sprintf("has format version %d, written by a newer costbo (this one reads up to %d)",
                version, checkpoint_version))
  }
  if (version != checkpoint_version) {
    bad(sprintf("has the unknown format version %d", version))
  }
  md5 <- field(3L, "md5", "^[0-9a-f]{32}$")
  n <- as.double(field(4L, "bytes", "^[0-9]{1,15}$"))
  payload <- bytes[-seq_len(nl[4L])]
  if (length(payload) < n) {
    bad(sprintf("is truncated (%.0f of %.0f bytes)", length(payload), n))
  }
  if (length(payload) > n) bad("has bytes after its end")
  if (!identical(md5_raw(payload), md5)) {
    bad("is damaged: its checksum does not match its content")
  }
  saved <- tryCatch(unserialize(memDecompress(payload, "gzip")),
                    error = function(e) bad("cannot be decoded"))
  if (!(is.list(saved) && all(c("state", "ctl", "random_seed") %in%
                              names(saved)))) {
    bad("does not hold a run")
  }
  saved
}

read_checkpoint_v1 <- function(path, bad) {
  # (warnings muffled, not caught: see write_checkpoint())
  saved <- tryCatch(withCallingHandlers(readRDS(path), warning = function(w) {
    invokeRestart("muffleWarning")
  }), error = function(e) NULL)
  if (!(is.list(saved) && identical(saved$format, "costbo checkpoint") &&
        all(c("state", "ctl", "random_seed") %in% names(saved)))) {
    bad("is not a file written by bo_optimize(checkpoint = ) (or is damaged)")
  }
  warn_checkpoint(sprintf(paste("the checkpoint \"%s\" was written by an",
                                "earlier costbo, without a checksum: it is",
                                "read without checking it for damage"),
                          path))
  saved
}

# A warning about a checkpoint (class costbo_warning_checkpoint).
warn_checkpoint <- function(message) {
  warning(costbo_condition(c("costbo_warning_checkpoint", "costbo_warning"),
                           message, type = "warning"))
}

# --- run identity ---------------------------------------------------------------

# A run's identity, kept in its state (so in its checkpoint and in the
# bo_run as `id`): a 12-digit hexadecimal name unique to the run, made
# without R's random-number generator (from the time, the process and a
# temporary file name).
new_run_id <- function() {
  key <- serialize(list(Sys.time(), Sys.getpid(), tempfile(), proc.time()),
                   NULL, version = 2L)
  substr(md5_raw(key), 1L, 12L)
}

# The code of a problem's functions (objective and cost, as the user gave
# them): their formals and bodies deparsed
# (not their source references, which depend on how they were read) and
# the other attributes (a cost constructor's parameters), as an MD5 sum.
# bo_resume() compares it with the saved problem's and warns when a
# problem given again brings other functions.
problem_code_digest <- function(problem) {
  code <- function(f) {
    if (!is.function(f)) return(f)
    a <- attributes(f)
    a$srcref <- NULL
    list(deparse(formals(f)), deparse(body(f)),
         if (length(a)) a[order(names(a))])
  }
  user <- function(mine, theirs) {
    if (is.null(problem[[mine]])) problem[[theirs]] else problem[[mine]]
  }
  fs <- lapply(list(user("user_objective", "objective"),
                    user("user_cost", "cost")), code)
  md5_raw(serialize(fs, NULL, version = 2L))
}
