"""The error watcher every browser test relies on sees each kind of error it promises to:
a console error and a failed console.assert of the page, a console error of a web worker
(where the browser-only site's kernel runs), an uncaught exception and a missing file."""
from page_errors import PageErrors

PAGE = """<!doctype html><title>errors</title><script>
console.log("a plain log is not an error");
console.error("page error");
console.assert(1 === 2, "failed assert");
new Worker(URL.createObjectURL(new Blob(["console.error('worker error')"])));
fetch("/missing.json");
setTimeout(() => { throw new Error("uncaught one"); }, 0);
</script>"""


def test_every_kind_of_error_is_collected(browser):
    context = browser.new_context()
    errors = PageErrors().watch(context)

    def serve(route):
        if route.request.url.endswith("/index.html"):
            route.fulfill(status=200, content_type="text/html", body=PAGE)
        else:
            route.fulfill(status=404, body="not here")

    context.route("http://errors.test/**", serve)
    page = context.new_page()
    page.goto("http://errors.test/index.html")
    deadline = 100
    while len(errors) < 6 and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    context.close()
    text = "\n".join(errors)
    assert "console.error: page error" in text
    assert "console.assert:" in text and "failed assert" in text
    assert "console.error: worker error" in text
    assert "uncaught one" in text
    assert "HTTP 404: http://errors.test/missing.json" in text
    assert "plain log" not in text
    # Chromium logs the 404 to the console too
    assert "Failed to load resource" in text
    assert len(errors) == 6, errors.report()
