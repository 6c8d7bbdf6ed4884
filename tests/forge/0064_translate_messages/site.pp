# Messages passed through the translate module's function.
notify { 'greeting':
  message => translate('Hello from %{host}', { 'host' => $facts['networking']['hostname'] }),
}
