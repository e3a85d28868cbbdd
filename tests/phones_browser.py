"""Players' phones in a real browser: Debian's chromium (headless) driven by Playwright, each phone a
browser context of its own (its own cookies), for the pages' tests and whole games.

    with Browser() as browser:
        ana = browser.phone(f"http://127.0.0.1:{server.port}/")
        ana.join("Ana")
        ana.choose("Ben")

Nothing is downloaded: chromium is the system's (`setup.sh --test` installs it), axe-core comes from
tests/axe/node_modules (`npm ci --prefix tests/axe`).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import Any

from playwright.sync_api import Browser as Chromium
from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGUMENTS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WAIT_MS = 5000  # the longest a phone waits for the server's next screen
# the pages set French typography's no-break spaces (`typeset`, narrator/phones/pages/common.js): read as plain spaces here, the
# typography has tests of its own
SPACES = str.maketrans({"\u00a0": " ", "\u202f": " "})


def plain(text: str) -> str:
    return text.translate(SPACES)


class Browser:
    """One chromium for many phones; it takes a second to start (the tests share one: conftest.py's
    `browser` fixture)."""

    def __init__(self) -> None:
        self._playwright: Playwright = sync_playwright().start()
        try:
            self._chromium: Chromium = self._playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=ARGUMENTS
            )
        except Exception:
            self._playwright.stop()
            raise
        self.phones: list[BrowserPhone] = []

    def phone(self, url: str, *, clock: bool = False) -> BrowserPhone:
        """A new phone (a fresh context: no cookie) opening `url`; `clock`: the test moves its time."""
        phone = BrowserPhone(self._chromium.new_context(locale="fr-FR"), url, clock)
        self.phones.append(phone)
        return phone

    def close_phones(self) -> None:
        for phone in self.phones:
            phone.close()
        self.phones.clear()

    def close(self) -> None:
        self.close_phones()
        self._chromium.close()
        self._playwright.stop()

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class BrowserPhone:
    """One player's phone: what a person does on the pages, and what they would see or hear."""

    def __init__(self, context: BrowserContext, url: str, clock: bool) -> None:
        self.context = context
        self.page: Page = context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors: list[str] = []  # the page's own errors and refused loads (a CSP violation…)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        if clock:
            self.page.clock.install()
        self.page.goto(url)

    # -- the join page -------------------------------------------------------------------

    def seats(self) -> list[str]:
        self.page.locator("#seats button").first.wait_for()
        return self.page.locator("#seats button").all_inner_texts()

    def join(self, seat: str) -> None:
        """Takes `seat` and waits until its page is connected."""
        self.page.get_by_role("button", name=seat, exact=True).click()
        self.page.wait_for_url("**/seat")
        self.wait_text("#connection", "Connecté au narrateur.")

    def message(self) -> str:
        return plain(self.page.locator("#message").inner_text())

    # -- the seat's page -----------------------------------------------------------------

    def wait_text(self, selector: str, text: str) -> None:
        self.page.wait_for_function(
            "([selector, text]) => document.querySelector(selector)?.textContent"
            ".replace(/[\\u00a0\\u202f]/g, ' ').includes(text)",
            arg=[selector, text],
        )

    def status(self) -> str:
        return plain(self.page.locator("#status").inner_text())

    def card_button(self) -> Any:
        return self.page.get_by_role("button", name="Voir ma carte")

    def show_card(self) -> str:
        """Presses « Voir ma carte »: the card's words as shown."""
        self.card_button().click()
        return plain(self.page.locator("#card").inner_text())

    def hide_card(self) -> None:
        self.page.get_by_role("button", name="Cacher ma carte").click()

    def card_in_page(self) -> str:
        """What of the card is in the page now, shown or not (empty when hidden)."""
        return str(self.page.locator("#card").evaluate("element => element.textContent")).strip()

    def question(self) -> str:
        """The question's text once one is shown."""
        legend = self.page.locator("#question-text")
        self.page.locator("#question:not([hidden])").wait_for()
        return plain(legend.inner_text())

    def wait_question(self, text: str) -> None:
        self.page.locator("#question:not([hidden])").wait_for()
        self.wait_text("#question-text", text)

    def choose(self, *labels: str, press: str = "Valider") -> None:
        """Ticks these choices (in this order) and presses `press`."""
        for label in labels:
            self.page.get_by_label(label, exact=True).check()
        self.press(press)

    def answer(self, value: object) -> None:
        """Answers the question shown with `value` as the hub will receive it (a choice's value, a list of
        them, True/False, or None for « Je passe » or « C'est fait »)."""
        buttons = self.page.locator("#actions button")
        buttons.first.wait_for()
        if isinstance(value, bool):
            self.press("Oui" if value else "Non")
        elif value is None:
            self.press("C'est fait" if "C'est fait" in buttons.all_inner_texts() else "Je passe")
        else:
            for one in [value] if isinstance(value, str) else list(value):  # type: ignore[call-overload]
                self.page.locator(f"#choices input[value={json.dumps(one, ensure_ascii=False)}]").check()
            self.press("Valider")

    def press(self, name: str) -> None:
        self.page.locator("#actions").get_by_role("button", name=name, exact=True).click()

    def wait_answered(self) -> None:
        self.page.locator("#answered:not([hidden])").wait_for()

    def refusal(self) -> str:
        self.page.locator("#question-reply:not(:empty)").wait_for()
        return plain(self.page.locator("#question-reply").inner_text())

    def secrets(self) -> list[str]:
        """Presses « Voir ce que j'ai appris » (unless shown): what the seat learned, newest first."""
        if self.page.locator("#secrets-button").get_attribute("aria-expanded") != "true":
            self.page.get_by_role("button", name="Voir ce que j'ai appris").click()
        return [plain(t) for t in self.page.locator("#secrets li").all_inner_texts()]

    def wait_secrets(self, count: int) -> None:
        """Waits until the page has received `count` secrets (nothing on the page says so: see seat.js)."""
        self.page.wait_for_function("(count) => screen !== null && screen.secrets.length === count", arg=count)

    def live_spots(self, selector: str) -> int:
        """How many live regions `selector`'s words are said by (itself and the regions around it): once,
        a screen reader says them once."""
        return int(
            self.page.locator(selector).evaluate(
                """(element) => { let spots = 0;
                for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
                    const live = node.getAttribute('aria-live');
                    const role = node.getAttribute('role');
                    if ((live && live !== 'off') || ['alert', 'status', 'log'].includes(role)) spots += 1;
                }
                return spots; }"""
            )
        )

    def secrets_in_page(self) -> str:
        """What of the secrets is in the page now, shown or not (empty when hidden)."""
        return str(self.page.locator("#secrets").evaluate("element => element.textContent")).strip()

    def vote(self, target: str | None) -> str:
        """Casts a day ballot from the phone: the reply shown."""
        self.page.locator("#ballot summary").click()
        if target is None:
            self.page.get_by_role("button", name="Voter blanc").click()
        else:
            self.page.get_by_label("Je vote contre").select_option(target)
            self.page.get_by_role("button", name="Voter", exact=True).click()
        self.page.locator("#ballot-reply:not(:empty)").wait_for()
        return plain(self.page.locator("#ballot-reply").inner_text())

    def shape(self, selector: str) -> str:
        """The elements under `selector` with their attributes, no text (a choice's `aria-label` is its
        text): what a page looks like."""
        return str(
            self.page.locator(selector).evaluate(
                """root => {
                    const walk = (node) => node.nodeType !== 1 ? '' :
                        '<' + node.tagName + [...node.attributes].filter(a => a.name !== 'value' && a.name !== 'for'
                            && a.name !== 'id' && a.name !== 'aria-label').map(a => ' ' + a.name + '=' + a.value).join('')
                        + '>' + [...node.childNodes].map(walk).join('') + '</' + node.tagName + '>';
                    return walk(root);
                }"""
            )
        )

    # -- checks --------------------------------------------------------------------------

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's violations on the page as it is now (evaluated, so the page's CSP allows it)."""
        assert AXE.exists(), "axe-core is a test dependency: ./setup.sh --test (npm ci --prefix tests/axe)"
        if not self.page.evaluate("typeof axe !== 'undefined'"):
            self.page.evaluate(AXE.read_text(encoding="utf-8"))
        result = self.page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)")
        return [
            {"id": v["id"], "help": v["help"], "nodes": [n["html"] for n in v["nodes"]]} for v in json.loads(result)
        ]

    def close(self) -> None:
        self.context.close()
