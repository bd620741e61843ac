# Installs pml on Windows, no administrator rights needed:
#   irm https://github.com/casys-ai/pml/releases/latest/download/install.ps1 | iex
#   & ([scriptblock]::Create((irm <url>/install.ps1))) -Version 0.2.0 -Prefix C:\tools\pml
#   .\install.ps1 [-Version X] [-Prefix DIR] [-BaseUrl URL] [-Target NAME]
# The same steps as install.sh: pick the build for this CPU (ARM64, x64 with or without AVX2), check
# the archive against the release's SHA256SUMS before anything is installed, install
# DIR\bin\pml.exe (default ~\.pml\bin\pml.exe). A mirror serves the same layout as the release page:
#   <BaseUrl>/download/v<version>/<file> and <BaseUrl>/latest/download/<file>.
param(
  [string]$Version = "",
  [string]$Prefix = "",
  [string]$BaseUrl = "",
  [string]$Target = ""
)

$ErrorActionPreference = "Stop"
$ProgressPreference = "SilentlyContinue" # Invoke-WebRequest's progress bar makes downloads many times slower

# Errors are thrown, not `exit`: under `irm ... | iex` an exit would close the user's window.
function Fail([string]$Message) { throw "pml install: $Message" }

if (-not $BaseUrl) { $BaseUrl = if ($env:PML_RELEASES_URL) { $env:PML_RELEASES_URL } else { "https://github.com/casys-ai/pml/releases" } }
$BaseUrl = $BaseUrl.TrimEnd("/")
if (-not $Prefix) { $Prefix = if ($env:PML_INSTALL_PREFIX) { $env:PML_INSTALL_PREFIX } else { Join-Path $HOME ".pml" } }
$Version = $Version.TrimStart("v")

function Get-PmlTarget {
  $arch = $null
  try { $arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString() } catch {}
  if (-not $arch) { $arch = if ($env:PROCESSOR_ARCHITEW6432) { $env:PROCESSOR_ARCHITEW6432 } else { $env:PROCESSOR_ARCHITECTURE } }
  switch -Regex ($arch) {
    "^(Arm64|ARM64)$" { return "windows-arm64" }
    "^(X64|AMD64)$" {
      # x64 builds need AVX2 (PF_AVX2_INSTRUCTIONS_AVAILABLE = 40); the baseline one runs on any x64 CPU.
      $avx2 = $false
      try {
        Add-Type -Namespace PmlInstall -Name Cpu -MemberDefinition '[DllImport("kernel32.dll")] public static extern bool IsProcessorFeaturePresent(uint feature);'
        $avx2 = [PmlInstall.Cpu]::IsProcessorFeaturePresent(40)
      } catch {}
      if ($avx2) { return "windows-x64" } else { return "windows-x64-baseline" }
    }
    default { Fail "no pml build for the $arch CPU; builds exist for x64 and ARM64" }
  }
}

function Get-Download([string]$Url, [string]$OutFile) {
  try {
    Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $OutFile
    return $true
  } catch {
    return $false
  }
}

if (-not $Target) { $Target = Get-PmlTarget }
# Windows PowerShell 5.1 may not offer TLS 1.2 by default.
try { [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12 } catch {}

$dirUrl = if ($Version) { "$BaseUrl/download/v$Version" } else { "$BaseUrl/latest/download" }
$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("pml-install-" + [System.Guid]::NewGuid().ToString("N"))
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
  $sumsPath = Join-Path $tmp "SHA256SUMS"
  if (-not (Get-Download "$dirUrl/SHA256SUMS" $sumsPath)) {
    $which = if ($Version) { " v$Version" } else { "" }
    Fail "could not fetch $dirUrl/SHA256SUMS: is there a release$which at -BaseUrl $BaseUrl?"
  }
  # SHA256SUMS lines: "<sha256>  <file>" (sha256sum's format).
  $sums = @{}
  foreach ($line in Get-Content $sumsPath) {
    if ($line -match '^([0-9a-fA-F]{64}) [ *](\S+)$') { $sums[$Matches[2]] = $Matches[1].ToLower() }
  }
  $suffix = "-$Target.zip"
  $file = if ($Version) { "pml-$Version$suffix" } else { $sums.Keys | Where-Object { $_.StartsWith("pml-") -and $_.EndsWith($suffix) } | Select-Object -First 1 }
  if (-not $file -or -not $sums.ContainsKey($file)) {
    $available = ($sums.Keys | Where-Object { $_.EndsWith(".zip") } | ForEach-Object { $_ -replace '^pml-[^-]*-', '' -replace '\.zip$', '' }) -join ", "
    Fail "no pml build for $Target in $dirUrl/SHA256SUMS (it lists: $available); pick one with -Target"
  }
  $expected = $sums[$file]

  Write-Host "downloading $dirUrl/$file"
  $archive = Join-Path $tmp $file
  if (-not (Get-Download "$dirUrl/$file" $archive)) { Fail "could not download $dirUrl/$file" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path $archive).Hash.ToLower()
  if ($actual -ne $expected) {
    Fail "refusing to install ${file}: its sha256 is $actual but SHA256SUMS says $expected. The download was damaged or tampered with; nothing was installed."
  }

  $unpacked = Join-Path $tmp "x"
  Expand-Archive -Path $archive -DestinationPath $unpacked -Force
  $exe = Join-Path $unpacked "pml.exe"
  if (-not (Test-Path $exe)) { Fail "$file holds no pml.exe" }
  # A wrong build fails here, before anything is replaced.
  $out = & $exe --version 2>&1
  if ($LASTEXITCODE -ne 0) { Fail "the $Target build does not run on this machine ($out); nothing was installed. Pick another build with -Target (an x64 CPU without AVX2 needs windows-x64-baseline)" }

  $bin = Join-Path $Prefix "bin"
  New-Item -ItemType Directory -Force -Path $bin | Out-Null
  $dest = Join-Path $bin "pml.exe"
  $staged = Join-Path $bin ".pml.exe.new"
  Copy-Item -Force $exe $staged
  # A running pml.exe cannot be overwritten, but it can be renamed out of the way.
  if (Test-Path $dest) { Move-Item -Force $dest (Join-Path $bin ".pml.exe.old") }
  Move-Item -Force $staged $dest
  Remove-Item -Force -ErrorAction SilentlyContinue (Join-Path $bin ".pml.exe.old")

  Write-Host "installed $(& $dest --version) to $dest"
  $userPath = [Environment]::GetEnvironmentVariable("Path", "User")
  if (-not (($userPath -split ";") -contains $bin) -and -not (($env:Path -split ";") -contains $bin)) {
    Write-Host ""
    Write-Host "$bin is not on your PATH. Add it with:"
    Write-Host "  [Environment]::SetEnvironmentVariable('Path', '$bin;' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
    Write-Host "then open a new terminal."
  }
  Write-Host "Then, in a project: pml init"
} finally {
  Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $tmp
}
