import { LinearProgress } from '@mui/material';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOADING_LABEL_ID, theme } from './layout';

afterEach(cleanup);

describe('the console theme', () => {
  it('names every loading bar by the layout’s loading label', () => {
    // react-admin shows such bars in a field or form while its record loads; unnamed, each is a
    // progress bar assistive technology cannot name (axe: aria-progressbar-name, serious).
    render(
      <ThemeProvider theme={createTheme(theme)}>
        <span id={LOADING_LABEL_ID} hidden>
          読み込み中
        </span>
        <LinearProgress />
      </ThemeProvider>,
    );
    expect(screen.getByRole('progressbar', { name: '読み込み中' })).toBeTruthy();
  });
});
