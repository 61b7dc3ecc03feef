// The phone header's menu (templates/partials/header.html.tera): a disclosure button that shows
// and hides the site navigation at narrow widths (static/css/site.css folds the navigation only
// while the header says data-menu="closed", which only this script sets: without it, the
// navigation stays open). Escape closes the menu and returns focus to its button.
for (const button of document.querySelectorAll('[data-menu-button]')) {
  const header = button.closest('[data-menu]');
  if (!header || !document.getElementById(button.getAttribute('aria-controls') ?? '')) continue;
  const show = (open) => {
    button.setAttribute('aria-expanded', String(open));
    header.dataset.menu = open ? 'open' : 'closed';
  };
  show(false);
  button.hidden = false;
  button.addEventListener('click', () => show(button.getAttribute('aria-expanded') !== 'true'));
  header.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') {
      show(false);
      button.focus();
    }
  });
}
