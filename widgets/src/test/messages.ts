/** Test fixture: the widget messages as proposed for locales/en.json and locales/ja.json. */
import type { Messages } from '../i18n';

export const EN: Messages = {
  build: { new_version: 'A new version is available.', reload: 'Reload' },
  countdown: {
    until: 'Until {phase}',
    days: '{n}d',
    hours: '{n}h',
    minutes: '{n}m',
    seconds: '{n}s',
    none: 'No upcoming phases.',
  },
};

export const JA: Messages = {
  build: { new_version: '新しいバージョンがあります。', reload: '再読み込み' },
  countdown: {
    until: '{phase}まで',
    days: '{n}日',
    hours: '{n}時間',
    minutes: '{n}分',
    seconds: '{n}秒',
    none: '今後の予定はありません。',
  },
};
