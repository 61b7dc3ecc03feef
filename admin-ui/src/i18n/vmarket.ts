/**
 * The console's own messages (`vmarket.*`), per locale. Resource folders add their
 * `resources.<name>.*` labels here as they arrive.
 */
export const vmarketJa = {
  vmarket: {
    title: 'バーチャルマーケット 管理コンソール',
    dashboard: {
      title: 'ダッシュボード',
      ready: '管理コンソールの準備ができました。',
    },
  },
};

export const vmarketEn: typeof vmarketJa = {
  vmarket: {
    title: 'Virtual Market admin console',
    dashboard: {
      title: 'Dashboard',
      ready: 'The admin console is ready.',
    },
  },
};
