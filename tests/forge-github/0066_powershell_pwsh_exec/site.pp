# Commands run by PowerShell Core (powershell's pwsh exec provider), as on
# a Linux node with pwsh installed; the provider needs pwsh on the PATH.
exec { 'mrtest-pwsh-version':
  command  => '$PSVersionTable.PSVersion | Out-File /tmp/mrtest-pwsh-version.txt',
  creates  => '/tmp/mrtest-pwsh-version.txt',
  provider => 'pwsh',
}
exec { 'mrtest-pwsh-check':
  command  => 'Write-Output "ok"',
  unless   => 'if (Test-Path /etc/mrtest-done) { exit 0 } else { exit 1 }',
  provider => 'pwsh',
}
