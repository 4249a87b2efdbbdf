fn main() -> std::process::ExitCode {
    sightline::cli::run()
}
