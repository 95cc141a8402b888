"""The admin web page in headless Chromium (driven by tests/integration/admin_web.sh, which starts the server).

Logs in with the token, opens tenant acme, checks what the page shows (status, chart, users, devices with their last
sync and last error, failed logins), adds and disables a user, creates a token, resets the device and sees the change,
and fails on any console error or CSP violation. Saves the page's screenshot as admin-page.png in the work directory.
Environment: SYNCML_TEST_ADMIN_URL, SYNCML_TEST_ADMIN_TOKEN, SYNCML_TEST_WORK_DIR.
"""

import os
import shutil
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["SYNCML_TEST_ADMIN_URL"]
TOKEN = os.environ["SYNCML_TEST_ADMIN_TOKEN"]
WORK = os.environ["SYNCML_TEST_WORK_DIR"]
failures = []


def check(what, ok):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1400"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    profile = tempfile.mkdtemp(prefix="admin-web-chromium.")
    driver = browser(profile)
    wait = WebDriverWait(driver, 15)
    css = lambda selector: wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, selector)))
    text_in = lambda selector, text: wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, selector), text))
    try:
        driver.get(URL)
        # From here on, the page reports CSP violations to us as well as to the console.
        driver.execute_script("window.csp_violations = [];"
                              "document.addEventListener('securitypolicyviolation',"
                              " (e) => window.csp_violations.push(e.violatedDirective + ' ' + e.blockedURI));")
        check("the login form asks for a token", css("#token").get_attribute("type") == "password")
        check("the page is behind the login", not driver.find_element(By.ID, "main").is_displayed())
        css("#token").send_keys(TOKEN)
        driver.find_element(By.CSS_SELECTOR, "#login button[type=submit]").click()

        check("the status shows readiness and the database", css("#status span.ok").text == "ready" and
              "schema" in css("#status").text)
        check("the token stays in the tab's sessionStorage",
              driver.execute_script("return sessionStorage.getItem('syncml-admin-token')") == TOKEN)
        check("the tenants list acme", css("#tenants button[data-tenant=acme]").text == "acme")
        driver.find_element(By.CSS_SELECTOR, "#tenants button[data-tenant=acme]").click()

        check("the tenant shows its users", text_in("#users", "alice") and "carol" in css("#users").text)
        row = css("#devices tr[data-device=web-phone]")
        check("the device is listed with its user", "alice" in row.text)
        check("with its last sync", "–" not in row.find_elements(By.TAG_NAME, "td")[2].text)
        check("syncing normally next", "normal" in row.text)
        check("and its last error", "authentication failed" in row.text)
        check("the failed login is listed", text_in("#failed-logins", "web-phone") and "alice" in css("#failed-logins").text)
        check("the chart is drawn", len(driver.find_elements(By.CSS_SELECTOR, "#chart svg rect.sessions")) >= 1 and
              len(driver.find_elements(By.CSS_SELECTOR, "#chart svg rect.errors")) >= 1)
        check("its legend counts the session and the error", text_in("#chart .legend", "1 session completed") and
              "1 error" in css("#chart .legend").text)

        css("#new-user").send_keys("dave")
        css("#new-password").send_keys("secret-pw")
        driver.find_element(By.CSS_SELECTOR, "#add-user button[type=submit]").click()
        check("a user is added", text_in("#message", "User dave added") and
              css("#users tr[data-user=dave]").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#users button[data-disable=dave]").click()
        check("and disabled", text_in("#users tr[data-user=dave]", "disabled"))

        css("#new-token-name").send_keys("web-acme")
        driver.find_element(By.CSS_SELECTOR, "#new-token-tenant option[value=acme]").click()
        driver.find_element(By.CSS_SELECTOR, "#add-token button[type=submit]").click()
        check("a token is created and shown once", text_in("#new-token", "web-acme: syncml_"))
        check("and listed", text_in("#tokens", "web-acme"))

        driver.find_element(By.CSS_SELECTOR, "#devices button[data-reset=web-phone]").click()
        check("the reset is confirmed", text_in("#message", "Device web-phone reset"))
        check("the device now slow-syncs next", text_in("#devices tr[data-device=web-phone]", "slow sync"))

        driver.execute_script("window.scrollTo(0, 0)")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(max(height + 160, 900), 2400))
        driver.save_screenshot(os.path.join(WORK, "admin-page.png"))

        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
        for entry in errors:
            print("console: %s %s" % (entry["level"], entry["message"]))
        check("no console errors or warnings", not errors)
        violations = driver.execute_script("return window.csp_violations")
        check("no CSP violations (%s)" % violations, violations == [])
    except TimeoutException as e:
        check("the page answered in time: %s" % e, False)
        driver.save_screenshot(os.path.join(WORK, "admin-page-failed.png"))
        for entry in driver.get_log("browser"):
            print("console: %s %s" % (entry["level"], entry["message"]))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
