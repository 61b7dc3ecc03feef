// The `i18n_redirected` cookie (spec §9: the language the visitor was last shown, 365 days),
// written here in the browser: pages a shared cache may keep carry no Set-Cookie (README "Running
// at scale"), so the server sets it only on redirects and private answers. The staff console
// reads it to open in the language the visitor was browsing in.
const lang = document.documentElement.lang;
if ((lang === 'ja' || lang === 'en') && !document.cookie.split('; ').includes(`i18n_redirected=${lang}`)) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `i18n_redirected=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
